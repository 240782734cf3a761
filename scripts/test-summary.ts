// Adds up the vitest JSON reports of every package and prints one closing line,
// "Tests: N passed, N failed", that CI and humans can read at a glance.
//
// A test file that failed to load (an import error, a missing fixture, a throw at the top level)
// has no test results, so vitest's test counts do not show it: each such file counts as one
// failure here, and so does a test task of turbo's run (read from its --summarize file) that left
// no report, did not run, or exited non-zero with no failure to show for it. Each is named.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

interface TurboRunSummary {
  tasks: { taskId: string; directory: string; execution?: { exitCode?: number | null } | null }[];
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  success: boolean;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { status: string; fullName: string }[];
  }[];
}

const root = join(import.meta.dirname, '..');
let passed = 0;
let failed = 0;
let skipped = 0;
const rows: string[] = [];
const failures: string[] = [];

for (const task of testTasks()) {
  const label = task.directory;
  const dir = join(root, label);
  const exitCode = task.execution?.exitCode ?? null;
  const file = join(dir, 'reports', 'vitest.json');
  if (!existsSync(file)) {
    failed += 1;
    const why = exitCode === null ? 'did not run (a task it depends on failed)' : 'left no report';
    failures.push(`${label}: the test task ${why}`);
    rows.push(`  ${label.padEnd(28)}    - passed   1 failed (no report)`);
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8')) as VitestReport;
  let packageFailed = report.numFailedTests;
  for (const result of report.testResults) {
    const where = relative(root, result.name);
    const failedTests = result.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failedTests) failures.push(`${where} > ${test.fullName}`);
    if (result.status === 'failed' && failedTests.length === 0) {
      packageFailed += 1;
      failures.push(`${where}: the file failed to load or crashed: ${firstLine(result.message)}`);
    }
  }
  if ((!report.success || exitCode !== 0) && packageFailed === 0) {
    packageFailed = 1;
    failures.push(`${label}: the test task failed outside any test (see its output above)`);
  }
  passed += report.numPassedTests;
  failed += packageFailed;
  skipped += report.numPendingTests + report.numTodoTests;
  rows.push(
    `  ${label.padEnd(28)} ${String(report.numPassedTests).padStart(4)} passed ${String(packageFailed).padStart(3)} failed`,
  );
}

console.log(`\n${rows.join('\n')}`);
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
console.log(
  `Tests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`,
);
process.exit(failed === 0 && passed > 0 ? 0 : 1);

/** The test tasks of the runs scripts/test.sh just made (turbo writes one summary per run). */
function testTasks(): TurboRunSummary['tasks'] {
  const runs = join(root, '.turbo', 'runs');
  const summaries = existsSync(runs)
    ? readdirSync(runs)
        .filter((name) => name.endsWith('.json'))
        .map((name) => join(runs, name))
    : [];
  if (summaries.length === 0) {
    console.error(
      'test-summary: no turbo run summary in .turbo/runs (run through scripts/test.sh)',
    );
    process.exit(1);
  }
  return summaries
    .flatMap((file) => (JSON.parse(readFileSync(file, 'utf8')) as TurboRunSummary).tasks)
    .filter((task) => task.taskId.endsWith('#test'))
    .sort((a, b) => a.directory.localeCompare(b.directory));
}

function firstLine(message: string | undefined): string {
  return (message ?? 'no message').split('\n')[0]?.slice(0, 200) ?? '';
}
