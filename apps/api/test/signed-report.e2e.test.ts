import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HANG_MS } from '@hallmark/runtime/testing';
import {
  checkReport,
  type HallmarkClient,
  type PublicVerification,
  ReportCheckError,
  uploadFile,
  watermarkFile,
} from '@hallmark/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTimeStampAuthority } from '../../../packages/watermark-core/test/support/time-stamp-authority.ts';
import { type RunningService, startService } from './support/service.ts';

const fixtures = join(import.meta.dirname, '../../../fixtures');
const PROBLEMS = 'https://hallmark.dev/problems/';
const cliMain = join(import.meta.dirname, '../../cli/src/main.ts');
/** Published facts come from callers: the page must show this as text, never as markup. */
const AUTHOR = 'Ada <img src=x onerror="alert(1)">';

describe('signed verification reports (real service, real images)', () => {
  let service: RunningService;
  let client: HallmarkClient;
  let apiKey: string;
  let output: Uint8Array;
  let developmentRoot: string;

  async function verifyNow(bytes: Uint8Array, key = apiKey): Promise<string> {
    const res = await fetch(`${service.baseUrl}/verify/file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'image/jpeg' },
      body: bytes,
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { requestId: string }).requestId;
  }

  async function verifyPublicly(bytes: Uint8Array): Promise<PublicVerification> {
    const res = await fetch(`${service.baseUrl}/public/verify`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg' },
      body: bytes,
    });
    expect(res.status).toBe(200);
    return (await res.json()) as PublicVerification;
  }

  const reportOf = (requestId: string, key = apiKey) =>
    fetch(`${service.baseUrl}/verify/${requestId}/report`, {
      headers: { authorization: `Bearer ${key}` },
    });

  beforeAll(async () => {
    service = await startService();
    ({ client, apiKey } = await service.newClient());
    const result = await watermarkFile(
      client,
      join(fixtures, 'photos/boats-0.6mp.jpg'),
      { watermarkType: ['invisible', 'c2pa'], data: { author: AUTHOR } },
      { minIntervalMs: 50, timeoutMs: HANG_MS },
    );
    output = await result.download();
    developmentRoot = await readFile(
      join(service.env.HALLMARK_DATA_DIR ?? '', 'c2pa/development-identity/root-ca.pem'),
      'utf8',
    );
  });

  afterAll(async () => {
    await service?.close();
  });

  it('an authentic output: the report checks offline against the development root, and names it', async () => {
    const requestId = await verifyNow(output);
    const res = await reportOf(requestId);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await res.text();
    const checked = await checkReport(text, { trustAnchors: developmentRoot, file: output });
    expect(checked.fileChecked).toBe(true);
    expect(checked.signer).toContain('NOT FOR PRODUCTION');
    expect(checked.statement).toMatchObject({
      verificationId: requestId,
      verdict: 'authentic',
      c2pa: { present: true, state: 'trusted' },
      content: { state: 'same' },
      record: { author: AUTHOR },
      reportKey: { development: true },
      service: { name: 'Hallmark', url: service.baseUrl },
    });
    expect(checked.statement.record).not.toHaveProperty('requestId');
    expect(checked.statement.record).not.toHaveProperty('fileId');
    // The SDK's method answers the parsed report: serialised again, its bytes check the same.
    const viaSdk = JSON.stringify(await client.getVerificationReport(requestId));
    await expect(
      checkReport(viaSdk, { trustAnchors: developmentRoot, file: output }),
    ).resolves.toMatchObject({ statement: { verificationId: requestId } });
  });

  it('refuses a swapped image, a changed verdict and a stranger root', async () => {
    const requestId = await verifyNow(output);
    const text = await (await reportOf(requestId)).text();
    const other = await readFile(join(fixtures, 'photos/fig-0.25mp.jpg'));
    await expect(
      checkReport(text, { trustAnchors: developmentRoot, file: other }),
    ).rejects.toMatchObject({ code: 'file_mismatch' });
    // A verdict rewritten in the payload (re-encoded as base64url) breaks the signature.
    const report = JSON.parse(text) as { payload: string; protected: string; signature: string };
    const statement = Buffer.from(report.payload, 'base64url').toString('utf8');
    const forged = JSON.stringify({
      ...report,
      payload: Buffer.from(statement.replace('"authentic"', '"no_provenance"')).toString(
        'base64url',
      ),
    });
    await expect(checkReport(forged, { trustAnchors: developmentRoot })).rejects.toMatchObject({
      code: 'bad_signature',
    });
    const error = await checkReport(text, { trustAnchors: '' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ReportCheckError);
  });

  it('a verification job (POST /verify) is reported too, and only to its key', async () => {
    const { requestId } = await verifyUploaded(output);
    const text = await (await reportOf(requestId)).text();
    await expect(
      checkReport(text, { trustAnchors: developmentRoot, file: output }),
    ).resolves.toMatchObject({ statement: { verdict: 'authentic', verificationId: requestId } });
    const stranger = await service.newClient();
    const res = await reportOf(requestId, stranger.apiKey);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { type: string }).type).toBe(`${PROBLEMS}not-found`);
  });

  it("crJSON of a verified file's manifest store, validated against the deployment's anchors", async () => {
    const { requestId } = await verifyUploaded(output);
    const crJson = await client.getVerificationCrJson(requestId);
    const verification = await client.getVerification(requestId);
    const [active] = crJson.manifests as Array<{
      label: string;
      validationResults: { success: Array<{ code: string }>; failure: unknown[] };
    }>;
    expect(crJson.jsonGenerator.name).toBe('hallmark');
    expect(active?.label).toBe(verification.result?.c2pa.manifestId);
    expect(active?.validationResults.failure).toEqual([]);
    expect(active?.validationResults.success.map((status) => status.code)).toContain(
      'signingCredential.trusted',
    );
    // An image sent in the request is not kept: nothing to read.
    const inRequest = await fetch(`${service.baseUrl}/verify/${await verifyNow(output)}/crjson`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(inRequest.status).toBe(404);
    const stranger = await service.newClient();
    const other = await fetch(`${service.baseUrl}/verify/${requestId}/crjson`, {
      headers: { authorization: `Bearer ${stranger.apiKey}` },
    });
    expect(other.status).toBe(404);
  });

  it('a verification recorded before reports named their file: 409 report-unavailable', async () => {
    const requestId = await verifyNow(output);
    const row = await service.prisma.verification.findUniqueOrThrow({ where: { id: requestId } });
    const { checkedFile: _dropped, ...older } = row.report as Record<string, unknown>;
    await service.prisma.verification.update({
      where: { id: requestId },
      data: { report: older as object },
    });
    const res = await reportOf(requestId);
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await res.json()) as { type: string }).type).toBe(`${PROBLEMS}report-unavailable`);
  });

  it('publishes the report key at a well-known address, without a token', async () => {
    const res = await fetch(`${service.baseUrl}/.well-known/hallmark-report-keys`);
    expect(res.status).toBe(200);
    const { keys } = (await res.json()) as {
      keys: Array<{ kid: string; development: boolean; x5c: string[] }>;
    };
    expect(keys).toHaveLength(1);
    const requestId = await verifyNow(output);
    const checked = await checkReport(await (await reportOf(requestId)).text(), {
      trustAnchors: developmentRoot,
    });
    expect(keys[0]).toMatchObject({ kid: checked.keyId, development: true });
  });

  it('with C2PA_TSA_URL, reports are time-stamped; without an answer, 503 and no report', async () => {
    const tsa = await startTimeStampAuthority();
    try {
      await service.restartApi({ C2PA_TSA_URL: tsa.url, PUBLIC_VERIFY: 'true' });
      const requestId = await verifyNow(output);
      const checked = await checkReport(await (await reportOf(requestId)).text(), {
        trustAnchors: developmentRoot,
        timeStampAnchors: tsa.rootPem,
        file: output,
      });
      expect(checked.timeStamp).toMatchObject({ trusted: true });
      expect(tsa.answered()).toBeGreaterThan(0);
      // The public page's answer carries its report, stamped as every other.
      const publicly = await verifyPublicly(output);
      const stamped = await checkReport(publicly.signedReport ?? '', {
        trustAnchors: developmentRoot,
        timeStampAnchors: tsa.rootPem,
        file: output,
      });
      expect(stamped.timeStamp).toMatchObject({ trusted: true });
    } finally {
      await tsa.close();
    }
    const requestId = await verifyNow(output);
    const refused = await reportOf(requestId);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect(((await refused.json()) as { type: string }).type).toBe(
      `${PROBLEMS}service-unavailable`,
    );
    // Without the authority, the public page still gives its verdict, with no report.
    const unstamped = await verifyPublicly(output);
    expect(unstamped.report.verdict).toBe('authentic');
    expect(unstamped.signedReport).toBeNull();
    await service.restartApi();
  });

  it('an unusable report key stops the API at start-up, naming the setting', async () => {
    const notAKey = join(service.env.HALLMARK_DATA_DIR ?? '', 'not-a-key.pem');
    await writeFile(notAKey, 'not a key\n');
    await expect(
      service.restartApi({ REPORT_SIGNING_KEY_PATH: notAKey, REPORT_CERT_CHAIN_PATH: notAKey }),
    ).rejects.toThrow();
    expect(service.api.messages.join('\n')).toContain('REPORT_SIGNING_KEY_PATH');
    await service.restartApi();
  });

  it('the page for people carries the report, escaped, and `hallmark report check` reads both', async () => {
    const requestId = await verifyNow(output);
    const res = await fetch(`${service.baseUrl}/verify/${requestId}/report.html`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('authentic');
    expect(html).toContain('Ada &lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(html).not.toContain('<img');
    expect(html).toContain('hallmark report check');

    const folder = await mkdtemp(join(tmpdir(), 'hallmark-report-check-'));
    try {
      const files = {
        json: join(folder, 'report.json'),
        html: join(folder, 'report.html'),
        image: join(folder, 'copy.jpg'),
        other: join(folder, 'other.jpg'),
        root: join(folder, 'root.pem'),
        tampered: join(folder, 'tampered.json'),
      };
      const text = await (await reportOf(requestId)).text();
      await Promise.all([
        writeFile(files.json, text),
        writeFile(files.html, html),
        writeFile(files.image, output),
        writeFile(files.other, await readFile(join(fixtures, 'photos/fig-0.25mp.jpg'))),
        writeFile(files.root, developmentRoot),
      ]);
      const check = (...args: string[]) => cli('report', 'check', ...args, '--trust', files.root);
      const valid = await check(files.json, files.image);
      expect(valid.code, valid.stderr).toBe(0);
      expect(valid.stdout).toContain('VALID signed report');
      expect(valid.stdout).toContain('verdict:      authentic');
      expect(valid.stdout).toContain('NOT FOR PRODUCTION');
      expect((await check(files.html, files.image)).code).toBe(0);
      const swapped = await check(files.json, files.other);
      expect(swapped.code).toBe(1);
      expect(swapped.stdout).toContain('REFUSED (file_mismatch)');
      // One changed byte in each part of the report: payload, header, signature.
      for (const at of [20, text.indexOf('"protected"') + 30, text.length - 10]) {
        const flipped = text[at] === 'A' ? 'B' : 'A';
        await writeFile(files.tampered, text.slice(0, at) + flipped + text.slice(at + 1));
        const refused = await check(files.tampered);
        expect(refused.code, `byte ${at}`).toBe(1);
        expect(refused.stdout).toContain('REFUSED');
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  async function verifyUploaded(bytes: Uint8Array): Promise<{ requestId: string }> {
    const link = await client.createUploadLink({ fileName: 'copy.jpg', contentType: 'image/jpeg' });
    await uploadFile(link.uploadLink, bytes, 'image/jpeg');
    const accepted = await client.createVerification({ fileId: link.fileId });
    await expect
      .poll(async () => (await client.getVerification(accepted.requestId)).status, {
        timeout: HANG_MS,
      })
      .toBe('success');
    return { requestId: accepted.requestId };
  }
});

/** The `hallmark` command from its sources, as a user's shell runs it. */
function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cliMain, ...args], (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}
