// Test support for the apps (not part of the runtime API): a private database and Redis prefix.
export { createTestEnv } from './test-env.ts';
