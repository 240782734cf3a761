import { defineConfig } from 'vitest/config';

// One test configuration for every package. The JSON report is a turbo output, so a cached
// `pnpm test` still contributes its counts to the summary line printed by scripts/test-summary.ts.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: 'reports/vitest.json' }]],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
