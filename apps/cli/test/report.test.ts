import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedReportText } from '../src/commands/report.ts';
import { runCli } from '../src/run-cli.ts';
import { capture } from './support/capture.ts';

// A report from the real service, checked by this command, is tested with the API
// (apps/api/test/signed-report.e2e.test.ts); here: what the command refuses before any check.
describe('hallmark report check', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'hallmark-report-cli-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('needs the roots to trust: exit 2 without --trust', async () => {
    const c = capture();
    expect(await runCli(['report', 'check', join(folder, 'report.json')], c.io)).toBe(2);
    expect(c.err()).toContain('--trust ROOTS.pem is required');
  });

  it('knows one action: exit 2 for another', async () => {
    const c = capture();
    expect(await runCli(['report', 'show', 'report.json'], c.io)).toBe(2);
  });

  it('refuses what is not a signed report: exit 1, saying why', async () => {
    const report = join(folder, 'not-a-report.json');
    const roots = join(folder, 'roots.pem');
    await writeFile(report, '{"verdict":"authentic"}');
    await writeFile(roots, '');
    const c = capture();
    expect(await runCli(['report', 'check', report, '--trust', roots], c.io)).toBe(1);
    expect(c.out()).toContain('REFUSED (malformed)');
  });

  it('takes the report out of its HTML page, verbatim, and refuses a page without one', () => {
    const report = '{"payload":"e30","protected":"e30","signature":"AA"}';
    const page = `<!doctype html><p>x</p><script type="application/json" id="hallmark-signed-report">${report}</script>`;
    expect(signedReportText(page)).toBe(report);
    expect(signedReportText(report)).toBe(report);
    expect(() => signedReportText('<!doctype html><p>no report</p>')).toThrow(/no signed report/);
  });
});
