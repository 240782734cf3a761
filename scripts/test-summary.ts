// Adds up the vitest JSON reports of every package and prints one closing line,
// "Tests: N passed, N failed", that CI and humans can read at a glance.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

const root = join(import.meta.dirname, '..');
let passed = 0;
let failed = 0;
let skipped = 0;
const rows: string[] = [];
for (const group of ['apps', 'packages']) {
  for (const name of readdirSync(join(root, group)).sort()) {
    const file = join(root, group, name, 'reports', 'vitest.json');
    if (!existsSync(file)) continue;
    const report = JSON.parse(readFileSync(file, 'utf8')) as VitestReport;
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    rows.push(
      `  ${`${group}/${name}`.padEnd(28)} ${String(report.numPassedTests).padStart(4)} passed ${String(report.numFailedTests).padStart(3)} failed`,
    );
  }
}
console.log(`\n${rows.join('\n')}`);
console.log(
  `Tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`,
);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
