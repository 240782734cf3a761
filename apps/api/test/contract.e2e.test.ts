import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { secretSealer } from '@hallmark/config';
import { createOperator, decideKeyRequest } from '@hallmark/db';
import { waitFor } from '@hallmark/runtime/testing';
import { type DocumentedResponse, documentedResponses } from '@hallmark/schemas/openapi';
import { HallmarkAdminClient } from '@hallmark/sdk';
import { loadServiceKeys } from '@hallmark/service-keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngImage } from './support/photos.ts';
import { type RunningService, startService } from './support/service.ts';

const photo = join(import.meta.dirname, '../../../fixtures/photos/fig-0.25mp.jpg');
const documented = documentedResponses();

function templateMatches(template: string, pathname: string): boolean {
  const pattern = template.replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${pattern}$`).test(pathname);
}

/**
 * The contract, checked on the running service: every answer of a documented operation must be
 * one the OpenAPI document lists for that operation (its status, or the `4XX`/`default` entry),
 * with the listed media type, and its body must satisfy the very zod schema the document was
 * generated from. Which (operation, status) pairs were seen is kept, to check coverage.
 */
describe('the real answers of every endpoint satisfy the documented schemas', () => {
  let service: RunningService;
  let bearer: string;
  const seen = new Set<string>();

  async function call(
    method: string,
    path: string,
    init: { body?: unknown; headers?: Record<string, string>; image?: Uint8Array } = {},
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${service.baseUrl}${path}`, {
      method,
      headers: {
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(init.image === undefined ? {} : { 'content-type': 'image/jpeg' }),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      ...(init.image === undefined ? {} : { body: init.image }),
    });
    const text = await res.text();
    const pathname = new URL(path, service.baseUrl).pathname;
    if (res.status === 204) {
      // No body to check; the operation must exist.
      expect(
        documented.some(
          (entry) => entry.method === method && templateMatches(entry.path, pathname),
        ),
      ).toBe(true);
      return { status: 204, body: {} };
    }
    const operation = documented.filter(
      (entry) => entry.method === method && templateMatches(entry.path, pathname),
    );
    expect(operation.length, `${method} ${pathname} is a documented operation`).toBeGreaterThan(0);
    const status = String(res.status);
    const entry: DocumentedResponse | undefined =
      operation.find((candidate) => candidate.status === status) ??
      operation.find((candidate) => candidate.status === `${status[0]}XX`) ??
      operation.find((candidate) => candidate.status === 'default');
    expect(
      entry,
      `${method} ${pathname} answered ${status}, which is not documented`,
    ).toBeDefined();
    if (entry === undefined) throw new Error('unreachable');
    expect(res.headers.get('content-type')).toContain(entry.mediaType);
    if (entry.schema === null) {
      // A binary answer (a manifest store): its media type is the contract.
      seen.add(`${entry.operationId} ${status}`);
      return { status: res.status, body: {} };
    }
    const body = JSON.parse(text) as Record<string, unknown>;
    const parsed = entry.schema.safeParse(body);
    expect(
      parsed.success,
      `${method} ${pathname} ${status}: ${JSON.stringify(parsed.error?.issues)} in ${text}`,
    ).toBe(true);
    seen.add(`${entry.operationId} ${status}`);
    return { status: res.status, body };
  }

  async function uploaded(bytes: Uint8Array, contentType = 'image/jpeg'): Promise<string> {
    const link = await call('POST', '/claim/file-upload-link', {
      headers: { authorization: bearer },
      body: { contentType, fileName: 'photo.jpg' },
    });
    expect(link.status).toBe(201);
    const put = await fetch(String(link.body.uploadLink), {
      method: 'PUT',
      headers: { 'content-type': contentType },
      body: bytes,
    });
    expect(put.status).toBe(200);
    return String(link.body.fileId);
  }

  async function finished(requestId: string): Promise<Record<string, unknown>> {
    let job: Record<string, unknown> = {};
    await waitFor(
      async () => {
        ({ body: job } = await call('GET', `/watermark/${requestId}`, {
          headers: { authorization: bearer },
        }));
        return job.status === 'success' || job.status === 'failed';
      },
      `job ${requestId} to finish`,
      { intervalMs: 100 },
    );
    return job;
  }

  beforeAll(async () => {
    service = await startService({ QUOTA_MINTS_PER_DAY: '1', PUBLIC_VERIFY: 'true' });
    bearer = `Bearer ${(await service.newClient()).apiKey}`;
  });

  afterAll(async () => {
    await service?.close();
  });

  it('probes and auth', async () => {
    expect((await call('GET', '/health')).status).toBe(200);
    expect((await call('GET', '/ready')).status).toBe(200);
    const token = await call('POST', '/auth/token', { headers: { authorization: bearer } });
    expect(token.status).toBe(201);
    const viaToken = await call('POST', '/claim/file-upload-link', {
      headers: { authorization: `Bearer ${String(token.body.accessToken)}` },
      body: { contentType: 'image/png', fileName: 'a.png' },
    });
    expect(viaToken.status).toBe(201);
    expect((await call('POST', '/auth/token')).status).toBe(401);
  });

  it('uploads and jobs: pending, success with IPFS and NFT, failed; and their errors', async () => {
    const auth = { authorization: bearer };
    const fileId = await uploaded(await readFile(photo));
    const accepted = await call('POST', '/watermark', {
      headers: auth,
      body: {
        fileId,
        options: { watermarkType: ['invisible', 'c2pa'], data: { author: 'Ada' }, mintNft: true },
      },
    });
    expect(accepted.status).toBe(202);
    const requestId = String(accepted.body.requestId);
    const success = await finished(requestId);
    expect(success.status).toBe('success');
    const nft = success.nft as { tokenId: string };
    const ipfs = success.ipfs as { ipfsHash: string };
    expect((await call('GET', `/nft/${nft.tokenId}`, { headers: auth })).status).toBe(200);
    expect((await call('GET', `/ipfs/${ipfs.ipfsHash}`, { headers: auth })).status).toBe(200);

    // Too small for the mark: fails permanently.
    const small = await uploaded(pngImage, 'image/png');
    const failing = await call('POST', '/watermark', {
      headers: auth,
      body: { fileId: small, options: { watermarkType: ['invisible'] } },
    });
    expect((await finished(String(failing.body.requestId))).status).toBe('failed');

    const errors: Array<[string, string, unknown, number]> = [
      ['POST', '/claim/file-upload-link', { contentType: 'text/plain', fileName: 'a' }, 415],
      ['POST', '/claim/file-upload-link', { contentType: 'image/png' }, 400],
      ['POST', '/watermark', { fileId: 'nope' }, 400],
      [
        'POST',
        '/watermark',
        { fileId: crypto.randomUUID(), options: { watermarkType: ['c2pa'] } },
        404,
      ],
      ['GET', '/watermark/not-a-uuid', undefined, 400],
      ['GET', `/watermark/${crypto.randomUUID()}`, undefined, 404],
      ['GET', '/nft/abc', undefined, 400],
      ['GET', '/nft/99999', undefined, 404],
      ['GET', '/ipfs/not-a-cid', undefined, 400],
      ['GET', '/ipfs/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy', undefined, 404],
    ];
    for (const [method, path, body, status] of errors) {
      expect((await call(method, path, { headers: auth, body })).status, `${method} ${path}`).toBe(
        status,
      );
    }
    const pending = await call('POST', '/claim/file-upload-link', {
      headers: auth,
      body: { contentType: 'image/jpeg', fileName: 'p.jpg' },
    });
    const notUploaded = await call('POST', '/watermark', {
      headers: auth,
      body: { fileId: pending.body.fileId, options: { watermarkType: ['c2pa'] } },
    });
    expect(notUploaded.status).toBe(409);
    const reuse = { ...auth, 'idempotency-key': 'contract-1' };
    const first = { fileId: small, options: { watermarkType: ['c2pa'] } };
    expect((await call('POST', '/watermark', { headers: reuse, body: first })).status).toBe(202);
    const second = { fileId: small, options: { watermarkType: ['invisible'] } };
    expect((await call('POST', '/watermark', { headers: reuse, body: second })).status).toBe(422);
    // The key's one mint of the day is spent.
    const quota = await call('POST', '/watermark', {
      headers: auth,
      body: { fileId, options: { watermarkType: ['c2pa'], mintNft: true } },
    });
    expect(quota.status).toBe(429);
    expect(quota.body).toMatchObject({ quota: 'mints_per_day', limit: 1 });
    // Errors raised before routing are documented as 4XX.
    expect((await call('GET', '/watermark/%zz', { headers: auth })).status).toBe(400);
  });

  it('verification and the Soft Binding Resolution API', async () => {
    const auth = { authorization: bearer };
    const marked = await call('POST', '/watermark', {
      headers: auth,
      body: {
        fileId: await uploaded(await readFile(photo)),
        options: { watermarkType: ['invisible', 'c2pa'] },
      },
    });
    const job = await finished(String(marked.body.requestId));
    const output = new Uint8Array(await (await fetch(String(job.watermarkedUrl))).arrayBuffer());
    const now = await call('POST', '/verify/file', { headers: auth, image: output });
    expect(now.status).toBe(200);
    const result = now.body.result as {
      record: { manifestId: string };
      invisible: { payload: string };
    };
    const queued = await call('POST', '/verify', {
      headers: auth,
      body: { fileId: await uploaded(output) },
    });
    expect(queued.status).toBe(202);
    let verification = await call('GET', `/verify/${String(queued.body.requestId)}`, {
      headers: auth,
    });
    await waitFor(
      async () => {
        verification = await call('GET', `/verify/${String(queued.body.requestId)}`, {
          headers: auth,
        });
        return verification.body.status === 'success' || verification.body.status === 'failed';
      },
      'the verification to finish',
      { intervalMs: 100 },
    );
    expect(verification.body.status).toBe('success');
    const regions = await call('GET', `/verify/${String(queued.body.requestId)}/regions.png`, {
      headers: auth,
    });
    expect(regions.status).toBe(200);
    const report = await call('GET', `/verify/${String(queued.body.requestId)}/report`, {
      headers: auth,
    });
    expect(report.status).toBe(200);
    const page = await call('GET', `/verify/${String(queued.body.requestId)}/report.html`, {
      headers: auth,
    });
    expect(page.status).toBe(200);
    const crJson = await call('GET', `/verify/${String(queued.body.requestId)}/crjson`, {
      headers: auth,
    });
    expect(crJson.status).toBe(200);
    expect((await call('GET', '/.well-known/hallmark-report-keys', {})).status).toBe(200);
    const value = Buffer.from(result.invisible.payload, 'hex').toString('base64');
    const alg = 'dev.hallmark.invisible.3';
    expect((await call('GET', '/services/supportedAlgorithms', { headers: auth })).status).toBe(
      200,
    );
    expect(
      (
        await call('GET', `/matches/byBinding?${new URLSearchParams({ alg, value })}`, {
          headers: auth,
        })
      ).status,
    ).toBe(200);
    expect(
      (await call('POST', '/matches/byBinding', { headers: auth, body: { alg, value } })).status,
    ).toBe(200);
    expect(
      (await call('POST', `/matches/byContent?alg=${alg}`, { headers: auth, image: output }))
        .status,
    ).toBe(200);
    const manifest = encodeURIComponent(result.record.manifestId);
    expect((await call('GET', `/manifests/${manifest}`, { headers: auth })).status).toBe(200);
    expect((await call('GET', '/verify/not-a-uuid', { headers: auth })).status).toBe(400);
  });

  it('batches', async () => {
    const auth = { authorization: bearer };
    const created = await call('POST', '/watermark/batches', {
      headers: auth,
      body: {
        items: [{ fileId: await uploaded(await readFile(photo)) }],
        options: { watermarkType: ['c2pa'] },
      },
    });
    expect(created.status).toBe(202);
    const got = await call('GET', `/watermark/batches/${String(created.body.batchId)}`, {
      headers: auth,
    });
    expect(got.status).toBe(200);
    const bad = await call('POST', '/watermark/batches', { headers: auth, body: { items: [] } });
    expect(bad.status).toBe(400);
  });

  it('webhook endpoints and their deliveries', async () => {
    const auth = { authorization: bearer };
    // A public name: registration does not resolve it; its deliveries fail and are retried.
    const created = await call('POST', '/webhooks', {
      headers: auth,
      body: { url: 'https://hooks.invalid/hallmark', events: ['watermark.succeeded'] },
    });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    expect((await call('GET', '/webhooks', { headers: auth })).status).toBe(200);
    expect((await call('POST', `/webhooks/${id}/rotate-secret`, { headers: auth })).status).toBe(
      200,
    );
    const requestId = await call('POST', '/watermark', {
      headers: auth,
      body: { fileId: await uploaded(await readFile(photo)), options: { watermarkType: ['c2pa'] } },
    });
    await finished(String(requestId.body.requestId));
    let deliveries = await call('GET', `/webhooks/${id}/deliveries`, { headers: auth });
    await waitFor(
      async () => {
        deliveries = await call('GET', `/webhooks/${id}/deliveries`, { headers: auth });
        return (deliveries.body.items as unknown[]).length > 0;
      },
      'a delivery of the webhook',
      { intervalMs: 200 },
    );
    const [delivery] = deliveries.body.items as { id: string }[];
    if (delivery === undefined) throw new Error('unreachable');
    const again = await call('POST', `/webhooks/${id}/deliveries/${delivery.id}/redeliver`, {
      headers: auth,
    });
    expect(again.status).toBe(202);
    expect((await call('DELETE', `/webhooks/${id}`, { headers: auth })).status).toBe(204);
    expect((await call('DELETE', `/webhooks/${id}`, { headers: auth })).status).toBe(404);
  });

  it("the key's records: lists, and a removed record's 410", async () => {
    const auth = { authorization: bearer };
    const records = await call('GET', '/ipfs?limit=5', { headers: auth });
    expect(records.status).toBe(200);
    const nfts = await call('GET', '/nft', { headers: auth });
    expect(nfts.status).toBe(200);
    const [nft] = nfts.body.items as { tokenId: string }[];
    if (nft === undefined) throw new Error('the jobs above minted no NFT');
    const transfer = await call('POST', `/nft/${nft.tokenId}/transfer`, {
      headers: auth,
      body: { to: `0x${'42'.repeat(20)}` },
    });
    expect(transfer.status).toBe(202);
    const followed = await call('GET', `/nft/transfers/${String(transfer.body.transferId)}`, {
      headers: auth,
    });
    expect(followed.status).toBe(200);
    const [record] = records.body.items as { ipfsHash: string }[];
    if (record === undefined) throw new Error('the jobs above stored no IPFS record');
    expect((await call('DELETE', `/ipfs/${record.ipfsHash}`, { headers: auth })).status).toBe(204);
    expect((await call('GET', `/ipfs/${record.ipfsHash}`, { headers: auth })).status).toBe(410);
  });

  it('key requests', async () => {
    const accepted = await call('POST', '/key-requests', {
      body: {
        companyName: 'Contract Co',
        purpose: 'Checking the contract.',
        contactName: 'Ada',
        contactEmail: 'ada@contract.example',
      },
    });
    expect(accepted.status).toBe(202);
    const link = new URL(String(accepted.body.statusUrl));
    expect((await call('GET', `${link.pathname}${link.search}`)).status).toBe(200);
    // Pending: no key to collect yet; approved: collected once.
    expect((await call('POST', `${link.pathname}/key${link.search}`)).status).toBe(409);
    const keys = await loadServiceKeys({
      HALLMARK_SECRET: service.env.HALLMARK_SECRET,
      HALLMARK_DATA_DIR: service.env.HALLMARK_DATA_DIR ?? '',
    });
    await decideKeyRequest(service.prisma, String(accepted.body.requestId), {
      approve: true,
      by: 'contract',
      sealer: secretSealer(keys.secretSealing),
    });
    expect((await call('POST', `${link.pathname}/key${link.search}`)).status).toBe(201);
    expect((await call('POST', '/key-requests', { body: { companyName: '' } })).status).toBe(400);
  });

  it('the admin API, through raw calls and through the SDK admin client', async () => {
    await createOperator(service.prisma, 'ops@contract.example', 'admin', 'contract password');
    const signIn = await fetch(`${service.baseUrl}/admin/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@contract.example', password: 'contract password' }),
    });
    const cookie = String(signIn.headers.get('set-cookie')).split(';')[0] ?? '';
    const { csrfToken } = (await signIn.json()) as { csrfToken: string };
    expect(
      (
        await call('POST', '/admin/session', {
          body: { email: 'ops@contract.example', password: 'contract password' },
        })
      ).status,
    ).toBe(201);
    const auth = { cookie, 'x-csrf-token': csrfToken };
    expect((await call('GET', '/admin/session', { headers: { cookie } })).status).toBe(200);
    const submit = (companyName: string) =>
      call('POST', '/key-requests', {
        body: { companyName, purpose: 'p', contactName: 'c', contactEmail: 'c@x.example' },
      });
    const one = String((await submit('One')).body.requestId);
    const two = String((await submit('Two')).body.requestId);
    expect(
      (await call('GET', '/admin/key-requests?status=pending&limit=1', { headers: { cookie } }))
        .status,
    ).toBe(200);
    expect(
      (await call('POST', `/admin/key-requests/${one}/approve`, { headers: auth })).status,
    ).toBe(200);
    expect(
      (await call('POST', `/admin/key-requests/${one}/approve`, { headers: auth })).status,
    ).toBe(409);
    // Its key waits for the requester: an operator may replace it.
    const waiting = await service.prisma.keyRequest.findUniqueOrThrow({
      where: { id: one },
      include: { apiKey: true },
    });
    expect(
      (
        await call('POST', `/admin/api-keys/${waiting.apiKey?.prefix ?? ''}/reissue`, {
          headers: auth,
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await call('POST', `/admin/key-requests/${two}/reject`, {
          headers: auth,
          body: { reason: 'No.' },
        })
      ).status,
    ).toBe(200);
    expect((await call('GET', '/admin/audit', { headers: { cookie } })).status).toBe(200);
    const hook = await call('POST', '/webhooks', {
      headers: { authorization: bearer },
      body: { url: 'https://hooks.invalid/admin' },
    });
    const endpoints = await call('GET', '/admin/webhooks', { headers: { cookie } });
    expect(endpoints.status).toBe(200);
    expect((endpoints.body.items as { id: string }[]).map((item) => item.id)).toContain(
      hook.body.id,
    );
    const hookDeliveries = `/admin/webhooks/${String(hook.body.id)}/deliveries`;
    expect((await call('GET', hookDeliveries, { headers: { cookie } })).status).toBe(200);
    const made = await call('POST', '/admin/api-keys', {
      headers: auth,
      body: { name: 'Contract' },
    });
    expect(made.status).toBe(201);
    const prefix = String(made.body.prefix);
    expect((await call('GET', '/admin/api-keys?limit=2', { headers: { cookie } })).status).toBe(
      200,
    );
    expect(
      (
        await call('PUT', `/admin/api-keys/${prefix}/wallet`, {
          headers: auth,
          body: { walletAddress: '0x000000000000000000000000000000000000bEEF' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call('PUT', `/admin/api-keys/${prefix}/rate-limit`, {
          headers: auth,
          body: { rateLimitPerMinute: 120 },
        })
      ).status,
    ).toBe(200);
    expect((await call('POST', `/admin/api-keys/${prefix}/revoke`, { headers: auth })).status).toBe(
      200,
    );
    expect((await call('GET', '/admin/overview', { headers: { cookie } })).status).toBe(200);
    expect((await call('GET', '/admin/activity?range=7d', { headers: { cookie } })).status).toBe(
      200,
    );
    const usage = await call('GET', `/admin/api-keys/${prefix}/usage`, { headers: { cookie } });
    expect(usage.status).toBe(200);
    const nfts = await call('GET', '/admin/nfts?limit=5', { headers: { cookie } });
    expect((nfts.body.items as unknown[]).length).toBeGreaterThan(0);
    const records = await call('GET', '/admin/ipfs-records?limit=5', { headers: { cookie } });
    expect((records.body.items as unknown[]).length).toBeGreaterThan(0);
    expect(
      (await call('GET', '/admin/jobs?limit=5&technique=c2pa', { headers: { cookie } })).status,
    ).toBe(200);
    const failed = await call('GET', '/admin/jobs?status=failed', { headers: { cookie } });
    const failedId = String((failed.body.items as Array<{ requestId: string }>)[0]?.requestId);
    expect((await call('GET', `/admin/jobs/${failedId}`, { headers: { cookie } })).status).toBe(
      200,
    );
    // Too small for the mark: another run would fail the same way, so no retry.
    expect((await call('POST', `/admin/jobs/${failedId}/retry`, { headers: auth })).status).toBe(
      409,
    );
    // As if its IPFS node had been away: that failure runs again.
    await service.prisma.watermarkJob.update({
      where: { id: failedId },
      data: { errorCode: 'ipfs_unreachable' },
    });
    expect((await call('POST', `/admin/jobs/${failedId}/retry`, { headers: auth })).status).toBe(
      200,
    );
    // Another operator's account, changed by this admin.
    const other = await createOperator(
      service.prisma,
      'other@contract.example',
      'viewer',
      'another password',
    );
    // Verifications in the console: an operator's own, listed and opened; and the public page's.
    const asOperator = await call('POST', '/admin/verifications', {
      headers: auth,
      image: await readFile(photo),
    });
    expect(asOperator.status).toBe(201);
    const listed = await call('GET', '/admin/verifications?limit=5&origin=console', {
      headers: { cookie },
    });
    expect(listed.status).toBe(200);
    const [first] = listed.body.items as Array<{ verificationId: string }>;
    const opened = await call('GET', `/admin/verifications/${first?.verificationId ?? ''}`, {
      headers: { cookie },
    });
    expect(opened.status).toBe(200);
    const signedReport = await call(
      'GET',
      `/admin/verifications/${first?.verificationId ?? ''}/report`,
      { headers: { cookie } },
    );
    expect(signedReport.status).toBe(200);
    expect((await call('GET', '/public/verify')).status).toBe(200);
    expect((await call('POST', '/public/verify', { image: await readFile(photo) })).status).toBe(
      200,
    );
    const operators = await call('GET', '/admin/operators', { headers: { cookie } });
    expect((operators.body.items as Array<{ email: string }>).map((o) => o.email)).toContain(
      other.email,
    );
    const path = `/admin/operators/${other.id}`;
    expect((await call('PATCH', path, { headers: auth, body: { role: 'admin' } })).status).toBe(
      200,
    );
    expect((await call('POST', `${path}/sign-out`, { headers: auth })).status).toBe(200);
    const reset = await call('POST', `${path}/password-reset`, { headers: auth });
    expect(reset.body.password).toEqual(expect.any(String));
    expect((await call('PATCH', path, { headers: auth, body: { disabled: true } })).status).toBe(
      200,
    );

    // The SDK's admin client, with a fetch that keeps the session cookie as a browser does.
    let jar = '';
    const admin = new HallmarkAdminClient({
      baseUrl: service.baseUrl,
      fetch: async (url, init) => {
        const headers = new Headers(init.headers);
        if (jar !== '') headers.set('cookie', jar);
        const res = await fetch(url, { ...init, headers });
        const set = res.headers.get('set-cookie');
        if (set !== null) jar = set.split(';')[0] ?? '';
        return res;
      },
    });
    const session = await admin.signIn({
      email: 'ops@contract.example',
      password: 'contract password',
    });
    expect(session.role).toBe('admin');
    const page = await admin.listKeyRequests({ status: 'approved' });
    expect(page.items.map((item) => item.requestId)).toContain(one);
    const audit = await admin.listAudit({ limit: 1 });
    expect(audit.items).toHaveLength(1);

    expect((await call('DELETE', '/admin/session', { headers: auth })).status).toBe(204);
    expect((await call('GET', '/admin/session', { headers: { cookie } })).status).toBe(401);
  });

  it('every operation was seen answering its success status', () => {
    const successes = documented.filter((entry) => /^2\d\d$/.test(entry.status));
    const missing = successes
      .map((entry) => `${entry.operationId} ${entry.status}`)
      .filter((key) => !seen.has(key));
    expect(missing).toEqual([]);
    // And each kind of documented error at least once somewhere.
    const statuses = new Set([...seen].map((key) => key.split(' ')[1]));
    for (const status of ['400', '401', '404', '409', '415', '422', '429']) {
      expect(statuses, `a ${status} was checked`).toContain(status);
    }
  });
});
