import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// Three files at a time even on two cores: most of these files start the service's processes
// (api, worker, a local chain) and spend their time waiting on them, not computing.
export default mergeConfig(shared, defineConfig({ test: { maxWorkers: 3 } }));
