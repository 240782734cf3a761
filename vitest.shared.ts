import { defineConfig } from 'vitest/config';

// One test configuration for every package. The JSON report is a turbo output, so a cached
// `pnpm test` still contributes its counts to the summary line printed by scripts/test-summary.ts.
//
// The timeouts are for hangs, not speed checks: sized for a machine running two whole suites at
// once on two cores, where a step can take several times its quiet duration. A test that waits
// for something polls for it (see `waitFor` in @hallmark/runtime/testing) within the same bound.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // expect.poll's own default is 1 s: a browser round trip or a worker's write can take longer.
    expect: { poll: { timeout: 120_000, interval: 100 } },
  },
});
