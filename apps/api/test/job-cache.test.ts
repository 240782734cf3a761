import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimUploadLink, put, requestWatermark } from './support/flow.ts';
import { jpegPhoto } from './support/photos.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

// Status reads keep the job's row (JOB_CACHE_SECONDS, here 2 s): PostgreSQL's notification of a
// change to it drops the entry at once, whoever wrote; unheard, the entry lapses within the TTL.
// No worker runs here: the jobs stay pending unless a test changes them.
describe('job status cache', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ JOB_CACHE_SECONDS: '2' });
  });

  afterAll(async () => {
    await t?.close();
  });

  async function pendingJob(bearer: string): Promise<string> {
    const link = await claimUploadLink(t, bearer);
    expect((await put(t, link.uploadLink, jpegPhoto, 'image/jpeg')).statusCode).toBe(200);
    const accepted = await requestWatermark(t, bearer, {
      fileId: link.fileId,
      options: { watermarkType: ['c2pa'] },
    });
    return (accepted.json() as { requestId: string }).requestId;
  }

  const read = (bearer: string, requestId: string) =>
    t.app.inject({
      method: 'GET',
      url: `/watermark/${requestId}`,
      headers: { authorization: bearer },
    });

  const fail = (requestId: string) =>
    t.prisma.watermarkJob.update({
      where: { id: requestId },
      data: { status: 'failed', errorCode: 'invalid_image', errorMessage: 'not an image' },
    });

  /** Milliseconds until the job reads as failed (polling every 10 ms, up to 5 s). */
  async function msUntilFailed(bearer: string, requestId: string): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < 5_000) {
      if ((await read(bearer, requestId)).json().status === 'failed') return Date.now() - started;
      await sleep(10);
    }
    return Number.POSITIVE_INFINITY;
  }

  it('a status change by any writer (here SQL, outside the API) is heard at once', async () => {
    const { bearer } = await t.newClient('poller');
    const requestId = await pendingJob(bearer);
    expect((await read(bearer, requestId)).json().status).toBe('pending');
    await fail(requestId);
    // Well before the 2 s the entry would otherwise live.
    expect(await msUntilFailed(bearer, requestId)).toBeLessThan(1_000);
    expect((await read(bearer, requestId)).json()).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_image' },
    });
  });

  it('a kept row needs no query; unheard, a change still shows within the TTL', async () => {
    const { bearer } = await t.newClient('unheard');
    const requestId = await pendingJob(bearer);
    expect((await read(bearer, requestId)).json().status).toBe('pending');
    await t.prisma.$executeRawUnsafe(
      'ALTER TABLE watermark_jobs DISABLE TRIGGER watermark_jobs_changed',
    );
    try {
      await fail(requestId);
      // Still served from the cache: the database says failed, nobody told the API.
      expect((await read(bearer, requestId)).json().status).toBe('pending');
      const ms = await msUntilFailed(bearer, requestId);
      expect(ms).toBeGreaterThan(0);
      expect(ms).toBeLessThanOrEqual(2_500);
    } finally {
      await t.prisma.$executeRawUnsafe(
        'ALTER TABLE watermark_jobs ENABLE TRIGGER watermark_jobs_changed',
      );
    }
  });

  it("a kept row is still only its key's: another key's read is not found", async () => {
    const owner = await t.newClient('owner');
    const other = await t.newClient('other');
    const requestId = await pendingJob(owner.bearer);
    expect((await read(owner.bearer, requestId)).statusCode).toBe(200);
    expect((await read(other.bearer, requestId)).statusCode).toBe(404);
    expect((await read(owner.bearer, requestId)).statusCode).toBe(200);
  });

  it('a deleted job is not found once the deletion is heard', async () => {
    const { bearer } = await t.newClient('deleted');
    const requestId = await pendingJob(bearer);
    expect((await read(bearer, requestId)).statusCode).toBe(200);
    await t.prisma.watermarkJob.delete({ where: { id: requestId } });
    const started = Date.now();
    while ((await read(bearer, requestId)).statusCode !== 404 && Date.now() - started < 5_000)
      await sleep(10);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
