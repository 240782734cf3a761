import { execFile } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  SignedVerificationReport,
  type VerificationReport,
  VerificationStatement,
} from '@hallmark/schemas';
import {
  checkReport,
  ReportCheckError,
  type VerificationStatement as SdkStatement,
} from '@hallmark/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTimeStampAuthority,
  type TimeStampAuthority,
} from '../../watermark-core/test/support/time-stamp-authority.ts';
import {
  loadReportKey,
  ReportKeyError,
  type ReportSigningKey,
  reportKeyJwk,
  reportKeyOf,
  serialiseReport,
  signStatement,
  TimeStampUnavailableError,
  timeStampReport,
  verificationStatement,
} from '../src/index.ts';
import { makeReportAuthority, type ReportAuthority } from './support/report-authority.ts';

/** A bound for a hang, not a speed check: the local authority answers at once. */
const HANG_MS = 120_000;

const file = new TextEncoder().encode('the bytes a verification examined');

const report: VerificationReport = {
  isWatermarked: true,
  watermarkTypes: ['invisible'],
  metadata: { author: 'A. Photographer' },
  ipfsLink: null,
  nftInfo: null,
  verdict: 'manifest_stripped',
  reasons: [{ code: 'manifest_missing', message: 'The file carries no C2PA manifest.' }],
  invisible: {
    found: true,
    algorithm: 'hallmark-dct-v2',
    payload: '0123456789abcdef',
    confidence: 0.93,
    geometry: { rotation: 0, mirrored: false, scale: 1, cropOffset: { x: 0, y: 0 } },
  },
  c2pa: {
    present: false,
    manifestId: null,
    state: null,
    statusCodes: [],
    signer: null,
    actions: [],
    metadata: {},
    softBinding: null,
    ingredients: [],
  },
  fingerprint: { algorithm: 'dct32-v1', value: null, distance: null },
  content: { state: 'same', coverage: 1, similarity: 0.99, regions: [] },
  record: {
    author: 'A. Photographer',
    watermarkTypes: ['invisible'],
    issuedAt: 1_780_000_000,
    manifestId: null,
    manifestUrl: null,
    ipfs: null,
    nft: null,
    requestId: '6f1b7c9e-2d4a-4c1e-9b7a-0c5e8f3d2a11',
    fileId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  },
};

function statementFor(key: ReportSigningKey, bytes = file) {
  return verificationStatement({
    verificationId: '2b9c6a1e-7f3d-4e5a-9c8b-1d2e3f4a5b6c',
    verifiedAt: new Date(),
    checkedFile: { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length },
    report,
    service: { name: 'Hallmark', url: 'https://hallmark.example', version: '0.1.0' },
    development: key.development,
    now: new Date(),
  });
}

// The SDK's statement type is written by hand: whatever it describes, the schema must accept
// (typecheck fails otherwise). The other way is blocked by how the generated types render
// nullable references.
type SchemaStatement = ReturnType<typeof VerificationStatement.parse>;
const schemaReadsSdk = (statement: SdkStatement): SchemaStatement => statement;

describe('signed verification reports', () => {
  let authority: ReportAuthority;
  let key: ReportSigningKey;
  let signed: string;

  beforeAll(async () => {
    authority = await makeReportAuthority();
    key = reportKeyOf(authority.keyPem, authority.chainPem, false);
    signed = serialiseReport(signStatement(statementFor(key), key));
  });

  it('round-trips: the statement, schema-valid and without tenant ids, checks against its root', async () => {
    const checked = await checkReport(signed, { trustAnchors: authority.rootPem, file });
    expect(checked.fileChecked).toBe(true);
    expect(checked.signer).toBe('CN=Test Reports, O=Example');
    expect(checked.keyId).toBe(key.keyId);
    expect(VerificationStatement.parse(schemaReadsSdk(checked.statement))).toEqual(
      checked.statement,
    );
    expect(SignedVerificationReport.parse(JSON.parse(signed))).toBeTruthy();
    expect(checked.statement.verdict).toBe('manifest_stripped');
    expect(checked.statement.reportKey.development).toBe(false);
    expect(JSON.stringify(checked.statement)).not.toContain(report.record?.requestId);
    expect(JSON.stringify(checked.statement)).not.toContain(report.record?.fileId);
    // A trailing newline, as a file saved by hand may have, is the one difference allowed.
    await expect(
      checkReport(`${signed}\n`, { trustAnchors: authority.rootPem }),
    ).resolves.toBeTruthy();
  });

  it('refuses every single-byte change of the report', async () => {
    const refusals = await refusalsOfEveryChange(signed, { trustAnchors: authority.rootPem });
    expect([...refusals.keys()].sort()).toEqual(['bad_signature', 'malformed']);
  });

  it('refuses another file than the one the report is about', async () => {
    const other = new TextEncoder().encode('the bytes a verification examined.');
    await expect(
      checkReport(signed, { trustAnchors: authority.rootPem, file: other }),
    ).rejects.toMatchObject({
      code: 'file_mismatch',
    });
  });

  it('refuses a signer that does not chain to the roots given', async () => {
    const stranger = await makeReportAuthority({ name: 'Test Report Root' });
    await expect(checkReport(signed, { trustAnchors: stranger.rootPem })).rejects.toMatchObject({
      code: 'untrusted_signer',
    });
    await expect(checkReport(signed, { trustAnchors: '' })).rejects.toMatchObject({
      code: 'untrusted_signer',
    });
  });

  it('refuses a certificate that was not valid at the time checked', async () => {
    const later = new Date(Date.now() + 3 * 24 * 3600 * 1000);
    await expect(
      checkReport(signed, { trustAnchors: authority.rootPem, at: later }),
    ).rejects.toMatchObject({
      code: 'certificate_expired',
    });
  });

  it('checks a P-384 key issued by an RSA root', async () => {
    const rsa = await makeReportAuthority({ root: 'rsa', signerCurve: 'P-384' });
    const rsaKey = reportKeyOf(rsa.keyPem, rsa.chainPem, false);
    expect(rsaKey.algorithm).toBe('ES384');
    const text = serialiseReport(signStatement(statementFor(rsaKey), rsaKey));
    await expect(checkReport(text, { trustAnchors: rsa.rootPem, file })).resolves.toMatchObject({
      signer: 'CN=Test Reports, O=Example',
    });
    await expect(checkReport(text, { trustAnchors: authority.rootPem })).rejects.toMatchObject({
      code: 'untrusted_signer',
    });
  });

  it('refuses a header that is not the one the service writes', async () => {
    const statement = statementFor(key);
    const unsigned = {
      payload: Buffer.from(JSON.stringify(statement)).toString('base64url'),
      protected: Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url'),
      signature: '',
    };
    await expect(
      checkReport(JSON.stringify(unsigned), { trustAnchors: authority.rootPem }),
    ).rejects.toMatchObject({ code: 'malformed' });
  });

  it('publishes the key as a JWK whose thumbprint is the kid', () => {
    const jwk = reportKeyJwk(key);
    expect(jwk).toMatchObject({
      kty: 'EC',
      crv: 'P-256',
      alg: 'ES256',
      kid: key.keyId,
      development: false,
    });
    expect(jwk.x5c).toHaveLength(2);
  });

  it('refuses a key that is not the certificate’s, or not an EC key', async () => {
    const other = await makeReportAuthority();
    expect(() => reportKeyOf(other.keyPem, authority.chainPem, false)).toThrow(ReportKeyError);
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const rsaPem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(() => reportKeyOf(rsaPem, authority.chainPem, false)).toThrow(
      /EC key on P-256 or P-384/,
    );
    expect(() => reportKeyOf('not a key', authority.chainPem, false)).toThrow(ReportKeyError);
  });

  it('checks with Python and OpenSSL alone, as docs/verification.md shows', async () => {
    const guide = await readFile(
      join(import.meta.dirname, '../../../docs/verification.md'),
      'utf8',
    );
    const after = guide.slice(guide.indexOf('**Checking without Hallmark.**'));
    const script = /```sh[^\n]*\n([\s\S]*?)```/.exec(after)?.[1];
    expect(script).toBeDefined();
    const folder = await mkdtemp(join(tmpdir(), 'hallmark-report-openssl-'));
    try {
      await writeFile(join(folder, 'root.pem'), authority.rootPem);
      await writeFile(join(folder, 'picture.jpg'), file);
      const run = async (report: string) => {
        await writeFile(join(folder, 'report.json'), report);
        return promisify(execFile)('bash', ['-c', script ?? ''], { cwd: folder }).then(
          ({ stdout }) => ({ ok: true, stdout }),
          (error: { stdout?: string }) => ({ ok: false, stdout: error.stdout ?? '' }),
        );
      };
      const good = await run(signed);
      expect(good.ok).toBe(true);
      expect(good.stdout).toContain('signer.pem: OK');
      expect(good.stdout).toContain('Verified OK');
      const digest = createHash('sha256').update(file).digest('hex');
      expect(good.stdout).toContain(`report about SHA-256 ${digest}`);
      expect(good.stdout).toContain(`${digest}  picture.jpg`);
      // A forged verdict: the same script says so.
      const report = JSON.parse(signed) as { payload: string };
      const forged = Buffer.from(
        Buffer.from(report.payload, 'base64url')
          .toString()
          .replace('"manifest_stripped"', '"authentic"'),
      ).toString('base64url');
      const bad = await run(JSON.stringify({ ...report, payload: forged }));
      expect(bad.stdout).toContain('verdict authentic');
      expect(bad.stdout).not.toContain('Verified OK');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  describe('time-stamped by an RFC 3161 authority', () => {
    let tsa: TimeStampAuthority;
    let stamped: string;
    beforeAll(async () => {
      tsa = await startTimeStampAuthority();
      const report = signStatement(statementFor(key), key);
      stamped = serialiseReport(
        await timeStampReport(report, tsa.url, AbortSignal.timeout(HANG_MS)),
      );
    });
    afterAll(() => tsa?.close());

    it('carries a token over its signature that checks against the authority', async () => {
      const checked = await checkReport(stamped, {
        trustAnchors: authority.rootPem,
        timeStampAnchors: tsa.rootPem,
        file,
      });
      expect(checked.timeStamp).toMatchObject({ trusted: true });
      expect(checked.timeStamp?.authority).toContain('Hallmark Test TSA');
      const drift = Math.abs(Date.parse(checked.timeStamp?.time ?? '') - Date.now());
      expect(drift).toBeLessThan(HANG_MS);
      // Without the authority's root the time-stamp is whole but not trusted.
      const untrusted = await checkReport(stamped, { trustAnchors: authority.rootPem });
      expect(untrusted.timeStamp).toMatchObject({ trusted: false });
    });

    it('outlives the signing certificate; a report without a time-stamp does not', async () => {
      // The signer's certificate is valid for a day: three days on, it has expired.
      const later = new Date(Date.now() + 3 * 24 * 3600 * 1000);
      await expect(
        checkReport(stamped, {
          trustAnchors: authority.rootPem,
          timeStampAnchors: tsa.rootPem,
          at: later,
        }),
      ).resolves.toMatchObject({ timeStamp: { trusted: true } });
      await expect(
        checkReport(signed, { trustAnchors: authority.rootPem, at: later }),
      ).rejects.toMatchObject({ code: 'certificate_expired' });
      // An untrusted time-stamp proves nothing about the time.
      await expect(
        checkReport(stamped, { trustAnchors: authority.rootPem, at: later }),
      ).rejects.toMatchObject({ code: 'certificate_expired' });
    });

    it('refuses every single-byte change, of the token too', async () => {
      const refusals = await refusalsOfEveryChange(stamped, {
        trustAnchors: authority.rootPem,
        timeStampAnchors: tsa.rootPem,
      });
      expect(refusals.get('bad_time_stamp')).toBeGreaterThan(0);
    });

    it('an authority that does not answer: no report, a clear error', async () => {
      const report = signStatement(statementFor(key), key);
      await expect(
        timeStampReport(report, 'http://127.0.0.1:2/tsa', AbortSignal.timeout(HANG_MS)),
      ).rejects.toThrow(TimeStampUnavailableError);
    });
  });

  describe('by default', () => {
    let dataDir: string;
    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'hallmark-report-dev-'));
    });
    afterAll(() => rm(dataDir, { recursive: true, force: true }));

    it('signs with the development identity and says so', async () => {
      const development = await loadReportKey({ HALLMARK_DATA_DIR: dataDir });
      expect(development.development).toBe(true);
      const text = serialiseReport(signStatement(statementFor(development), development));
      const root = await readFile(
        join(dataDir, 'c2pa', 'development-identity', 'root-ca.pem'),
        'utf8',
      );
      const checked = await checkReport(text, { trustAnchors: root });
      expect(checked.statement.reportKey.development).toBe(true);
      expect(checked.signer).toContain('NOT FOR PRODUCTION');
    });
  });
});

/**
 * Changes each byte of a report in turn (a base64 character to its neighbour, anything else to
 * a letter), expects every copy refused, and counts the refusals by code.
 */
async function refusalsOfEveryChange(
  text: string,
  options: Parameters<typeof checkReport>[1],
): Promise<Map<string, number>> {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const refusals = new Map<string, number>();
  for (let index = 0; index < text.length; index += 1) {
    const original = text[index] as string;
    const at = alphabet.indexOf(original);
    const replacement =
      at >= 0 ? (alphabet[(at + 1) % alphabet.length] as string) : original === 'x' ? 'y' : 'x';
    const tampered = text.slice(0, index) + replacement + text.slice(index + 1);
    const error = await checkReport(tampered, options).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error, `byte ${index} changed from ${original} to ${replacement}`).toBeInstanceOf(
      ReportCheckError,
    );
    const code = (error as ReportCheckError).code;
    refusals.set(code, (refusals.get(code) ?? 0) + 1);
  }
  return refusals;
}
