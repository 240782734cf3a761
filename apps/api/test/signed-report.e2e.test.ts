import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HANG_MS } from '@hallmark/runtime/testing';
import {
  checkReport,
  type HallmarkClient,
  ReportCheckError,
  uploadFile,
  watermarkFile,
} from '@hallmark/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, startService } from './support/service.ts';

const fixtures = join(import.meta.dirname, '../../../fixtures');
const PROBLEMS = 'https://hallmark.dev/problems/';

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
      { watermarkType: ['invisible', 'c2pa'], data: { author: 'Ada' } },
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
      record: { author: 'Ada' },
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

  it('an unusable report key stops the API at start-up, naming the setting', async () => {
    const notAKey = join(service.env.HALLMARK_DATA_DIR ?? '', 'not-a-key.pem');
    await writeFile(notAKey, 'not a key\n');
    await expect(
      service.restartApi({ REPORT_SIGNING_KEY_PATH: notAKey, REPORT_CERT_CHAIN_PATH: notAKey }),
    ).rejects.toThrow();
    expect(service.api.messages.join('\n')).toContain('REPORT_SIGNING_KEY_PATH');
    await service.restartApi();
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
