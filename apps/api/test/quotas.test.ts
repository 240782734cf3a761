import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimUploadLink, put, requestWatermark } from './support/flow.ts';
import { jpegPhoto } from './support/photos.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

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
      // Room for two uploads of the photo, not three.
      QUOTA_STORED_BYTES: String(jpegPhoto.length * 2),
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
    // Under the quota: a second upload is allowed, which reaches it.
    await uploaded(carol.bearer);
    const before = await t.snapshot();
    const link = await t.app.inject({
      method: 'POST',
      url: '/claim/file-upload-link',
      headers: { authorization: carol.bearer },
      payload: { contentType: 'image/jpeg', fileName: 'photo.jpg' },
    });
    expectQuota(link, 'stored_bytes', jpegPhoto.length * 2);
    const job = await requestWatermark(t, carol.bearer, {
      fileId: first,
      options: { watermarkType: ['c2pa'] },
    });
    expectQuota(job, 'stored_bytes', jpegPhoto.length * 2);
    expect(await t.snapshot()).toEqual(before);
    // Deleted bytes stop counting: after retention, the key may store again.
    await t.prisma.file.updateMany({
      where: {
        apiKeyId: (await t.prisma.file.findUniqueOrThrow({ where: { id: first } })).apiKeyId,
      },
      data: { deletedAt: new Date() },
    });
    expect((await claimUploadLink(t, carol.bearer)).fileId).toBeTruthy();
  });
});
