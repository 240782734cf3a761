import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './openapi.ts';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const redoclyBin = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: Array<{ ruleId: string; severity: string; message: string }>;
}

/**
 * Runs Redocly's own command line, as a developer would, with the package's redocly.yaml. No
 * network: telemetry is off in the config and the update check is suppressed here.
 */
function lint(file: string): Promise<{ exitCode: number; report: LintReport; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [redoclyBin, 'lint', file, '--format=json', `--config=${join(packageDir, 'redocly.yaml')}`],
      {
        cwd: packageDir,
        env: { ...process.env, REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_TELEMETRY: 'off' },
        // Only a hang: a lint takes seconds, but two suites at once on two cores slow it many times.
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        // A non-zero exit has a numeric code; anything else (not started, killed) is a failure.
        const exitCode = error === null ? 0 : error.code;
        if (typeof exitCode !== 'number') {
          reject(error);
          return;
        }
        try {
          resolve({ exitCode, report: JSON.parse(stdout), stderr });
        } catch (parseError) {
          reject(new Error(`redocly printed no JSON report: ${stderr}`, { cause: parseError }));
        }
      },
    );
  });
}

describe('openapi.json under Redocly lint (recommended ruleset)', () => {
  it('has no errors', async () => {
    const { exitCode, report, stderr } = await lint('openapi.json');
    const errors = report.problems.filter((problem) => problem.severity === 'error');
    expect(errors, stderr).toEqual([]);
    expect(report.totals.errors).toBe(0);
    expect(exitCode).toBe(0);
  });

  // The same document with a defect the ruleset must catch: proves the lint really runs the rules
  // on what it is given, so the case above cannot pass by linting nothing.
  it('reports an error for a document without servers', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'hallmark-lint-'));
    try {
      const { servers: _servers, ...withoutServers } = buildOpenApiDocument();
      const file = join(directory, 'openapi.json');
      await writeFile(file, JSON.stringify(withoutServers));
      const { exitCode, report } = await lint(file);
      expect(exitCode).not.toBe(0);
      expect(report.problems).toContainEqual(
        expect.objectContaining({ ruleId: 'no-empty-servers', severity: 'error' }),
      );
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
