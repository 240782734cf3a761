import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimUploadLink, put, requestWatermark } from './support/flow.ts';
import { jpegPhoto } from './support/photos.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const QUOTA = jpegPhoto.length * 4;

function expectQuota(res: LightMyRequestResponse, quota: string, limit: number) {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.json()).toMatchObject({
    type: 'https://hallmark.dev/problems/quota-exceeded',
    status: 429,
    quota,
    limit,
  });
}

describe('per-key quotas, answered before anything is stored or queued', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({
      QUOTA_MINTS_PER_DAY: '2',
      // Room for four photos' bytes, stored or reserved by queued jobs, not five.
      QUOTA_STORED_BYTES: String(QUOTA),
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  async function uploaded(bearer: string): Promise<string> {
    const link = await claimUploadLink(t, bearer);
    expect((await put(t, link.uploadLink, jpegPhoto, 'image/jpeg')).statusCode).toBe(200);
    return link.fileId;
  }

  it('mints_per_day: the third NFT job of a key today is refused with Retry-After; other keys are not', async () => {
    const alice = await t.newClient('alice');
    const fileId = await uploaded(alice.bearer);
    const mint = { fileId, options: { watermarkType: ['c2pa'], mintNft: true } };
    // A mint refused for another reason (no such file) gives its slot back.
    const missing = await requestWatermark(t, alice.bearer, {
      ...mint,
      fileId: '8c1f4a0e-0000-4000-8000-000000000000',
    });
    expect(missing.statusCode).toBe(404);
    expect((await requestWatermark(t, alice.bearer, mint)).statusCode).toBe(202);
    expect((await requestWatermark(t, alice.bearer, mint)).statusCode).toBe(202);

    const before = await t.snapshot();
    const refused = await requestWatermark(t, alice.bearer, mint);
    expectQuota(refused, 'mints_per_day', 2);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(await t.snapshot()).toEqual(before);

    // Jobs without an NFT are not counted; another key has its own budget.
    const plain = { fileId, options: { watermarkType: ['c2pa'] } };
    expect((await requestWatermark(t, alice.bearer, plain)).statusCode).toBe(202);
    const bob = await t.newClient('bob');
    const bobsFile = await uploaded(bob.bearer);
    expect((await requestWatermark(t, bob.bearer, { ...mint, fileId: bobsFile })).statusCode).toBe(
      202,
    );
  });

  it('stored_bytes: once a key stores its quota, new upload links and jobs are refused', async () => {
    const carol = await t.newClient('carol');
    const first = await uploaded(carol.bearer);
    // Under the quota: more uploads are allowed, the last of which reaches it.
    for (let stored = 1; stored < 4; stored += 1) await uploaded(carol.bearer);
    const before = await t.snapshot();
    const link = await t.app.inject({
      method: 'POST',
      url: '/claim/file-upload-link',
      headers: { authorization: carol.bearer },
      payload: { contentType: 'image/jpeg', fileName: 'photo.jpg' },
    });
    expectQuota(link, 'stored_bytes', QUOTA);
    const job = await requestWatermark(t, carol.bearer, {
      fileId: first,
      options: { watermarkType: ['c2pa'] },
    });
    expectQuota(job, 'stored_bytes', QUOTA);
    expect(await t.snapshot()).toEqual(before);
    // Deleted bytes stop counting: after retention, the key may store again.
    await t.prisma.file.updateMany({
      where: { apiKeyId: await keyOf(first) },
      data: { deletedAt: new Date() },
    });
    expect((await claimUploadLink(t, carol.bearer)).fileId).toBeTruthy();
  });

  it('stored_bytes: a queued job reserves its file size until its output is stored or it fails', async () => {
    const dave = await t.newClient('dave');
    const first = await uploaded(dave.bearer);
    const second = await uploaded(dave.bearer);
    const plain = { watermarkType: ['c2pa'] };
    // Two photos stored, a third reserved by this job.
    const queued = await requestWatermark(t, dave.bearer, { fileId: first, options: plain });
    expect(queued.statusCode, queued.body).toBe(202);

    // A batch of two fits its first item (four photos), not its second: the whole batch is
    // refused, as the items sent one by one would be, and nothing is written.
    const before = await t.snapshot();
    const batch = await t.app.inject({
      method: 'POST',
      url: '/watermark/batches',
      headers: { authorization: dave.bearer },
      payload: { items: [{ fileId: first }, { fileId: second }], options: plain },
    });
    expectQuota(batch, 'stored_bytes', QUOTA);
    expect(batch.json().errors[0].path).toBe('items[1].fileId');
    expect(await t.snapshot()).toEqual(before);

    // One more job reaches the quota; the next one is refused.
    expect(
      (await requestWatermark(t, dave.bearer, { fileId: second, options: plain })).statusCode,
    ).toBe(202);
    expectQuota(
      await requestWatermark(t, dave.bearer, { fileId: second, options: plain }),
      'stored_bytes',
      QUOTA,
    );

    // A failed job gives its reservation back; a stored output replaces it with its own size.
    const apiKeyId = await keyOf(first);
    await t.prisma.watermarkJob.update({
      where: { id: queued.json().requestId },
      data: { status: 'failed' },
    });
    const afterFailure = await requestWatermark(t, dave.bearer, { fileId: second, options: plain });
    expect(afterFailure.statusCode, afterFailure.body).toBe(202);
    await t.prisma.watermarkJob.update({
      where: { id: afterFailure.json().requestId },
      data: { status: 'success', outputSizeBytes: 1 },
    });
    const usage = await t.prisma.storageUsage.findUniqueOrThrow({ where: { apiKeyId } });
    expect(Number(usage.bytes)).toBe(QUOTA - jpegPhoto.length + 1);
  });

  async function keyOf(fileId: string): Promise<string> {
    return (await t.prisma.file.findUniqueOrThrow({ where: { id: fileId } })).apiKeyId;
  }
});
