// `hallmark inspect --crjson` and `hallmark conformance-check`: real files signed by the CLI,
// reports valid against the committed crJSON schema, exit codes, and the honesty of `--at`.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crJsonSchemaErrors } from '../../../packages/watermark-core/test/support/crjson-schema.ts';
import {
  startTimeStampAuthority,
  type TimeStampAuthority,
} from '../../../packages/watermark-core/test/support/time-stamp-authority.ts';
import { runCli } from '../src/run-cli.ts';
import { capture } from './support/capture.ts';

const repoRoot = join(import.meta.dirname, '../../..');
const photo = join(repoRoot, 'fixtures/photos/fig-0.25mp.jpg');

let dir: string;
let tsa: TimeStampAuthority;
let schemaErrors: (document: unknown) => string[];
let signed: string;
let stamped: string;
let root: string;
let tsaRoot: string;

async function cli(...argv: string[]) {
  const c = capture({ HALLMARK_DATA_DIR: join(dir, 'data') });
  const code = await runCli(argv, c.io);
  return { code, out: c.out(), err: c.err() };
}

interface Report {
  manifests: {
    label: string;
    signature: { timeStampInfo?: { certificateInfo: { subject: { CN: string } } } };
    validationResults: Record<'success' | 'informational' | 'failure', { code: string }[]> & {
      validationTime: string;
    };
  }[];
}

/** The printed report, checked against the schema. */
function reportOf(out: string): Report {
  const document = JSON.parse(out) as Report;
  expect(schemaErrors(document)).toEqual([]);
  return document;
}

/** conformance-check of `file` against the development root and `tsaList`. */
function check(file: string, tsaList: string, ...extra: string[]) {
  return cli('conformance-check', file, '--trust-list', root, '--tsa-list', tsaList, ...extra);
}

const codes = (report: Report, kind: 'success' | 'informational' | 'failure') =>
  report.manifests[0]?.validationResults[kind].map((status) => status.code) ?? [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hallmark-cli-crjson-'));
  tsa = await startTimeStampAuthority();
  schemaErrors = await crJsonSchemaErrors();
  signed = join(dir, 'signed.jpg');
  stamped = join(dir, 'stamped.jpg');
  expect((await cli('sign', photo, signed)).code).toBe(0);
  expect((await cli('sign', photo, stamped, '--tsa', tsa.url)).code).toBe(0);
  root = join(dir, 'data/c2pa/development-identity/root-ca.pem');
  tsaRoot = join(dir, 'tsa-root.pem');
  await writeFile(tsaRoot, tsa.rootPem);
});
afterAll(async () => {
  await tsa.close();
  await rm(dir, { recursive: true, force: true });
});

describe('hallmark inspect --crjson', () => {
  it('prints crJSON; trusted with --trust, exit 0', async () => {
    const { code, out } = await cli('inspect', signed, '--crjson', '--trust', root);
    expect(code).toBe(0);
    const report = reportOf(out);
    expect(report.manifests).toHaveLength(1);
    expect(codes(report, 'success')).toContain('signingCredential.trusted');
  });

  it('exits 1 for a file without a manifest, printing an empty report', async () => {
    const { code, out } = await cli('inspect', photo, '--crjson');
    expect(code).toBe(1);
    expect(reportOf(out).manifests).toEqual([]);
  });

  it('refuses --json with --crjson as bad usage', async () => {
    const { code, err } = await cli('inspect', signed, '--crjson', '--json');
    expect(code).toBe(2);
    expect(err).toContain('--json and --crjson exclude each other');
  });
});

describe('hallmark conformance-check', () => {
  it('validates against the lists given: the signer and the time-stamp trusted', async () => {
    const { code, out } = await check(stamped, tsaRoot);
    expect(code).toBe(0);
    const report = reportOf(out);
    expect(codes(report, 'success')).toEqual(
      expect.arrayContaining(['signingCredential.trusted', 'timeStamp.trusted']),
    );
    expect(report.manifests[0]?.signature.timeStampInfo?.certificateInfo.subject.CN).toBe(
      'Hallmark Test TSA',
    );
  });

  it('does not trust an authority missing from --tsa-list', async () => {
    const { code, out } = await check(stamped, root);
    expect(code).toBe(0);
    const report = reportOf(out);
    expect(codes(report, 'success')).not.toContain('timeStamp.trusted');
    expect([...codes(report, 'informational'), ...codes(report, 'failure')]).toContain(
      'timeStamp.untrusted',
    );
  });

  it('reports the validation at --at when the certificates are valid then as now', async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const { code, out } = await check(signed, tsaRoot, '--at', at);
    expect(code).toBe(0);
    expect(reportOf(out).manifests[0]?.validationResults.validationTime).toBe(at);
  });

  it('refuses an --at c2pa-node cannot honour, with exit 1 and no report', async () => {
    const { code, out, err } = await check(signed, tsaRoot, '--at', '2099-01-01T00:00:00Z');
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toContain('judges such a signature at the current clock');
  });

  it.each([['2025-06-01'], ['yesterday'], ['2025-13-01T00:00:00Z'], ['2025-06-01T12:00:00']])(
    'rejects --at %s as bad usage',
    async (at) => {
      const { code, err } = await check(signed, tsaRoot, '--at', at);
      expect(code).toBe(2);
      expect(err).toContain('is not an RFC 3339 date-time');
    },
  );

  it('requires both lists', async () => {
    const { code, err } = await cli('conformance-check', signed, '--trust-list', root);
    expect(code).toBe(2);
    expect(err).toContain('--trust-list and --tsa-list are both required');
  });
});
