// Test support for the apps (not part of the runtime API): a private database, Redis prefix and
// data folder, and real service processes to run against them.
export {
  type ServiceProcess,
  type ServiceProcessOptions,
  startServiceProcess,
} from './service-process.ts';
export { createTestEnv } from './test-env.ts';
export { HANG_MS, type WaitOptions, waitFor } from './wait-for.ts';
