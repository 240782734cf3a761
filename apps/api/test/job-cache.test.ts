import { waitFor } from '@hallmark/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimUploadLink, put, requestWatermark } from './support/flow.ts';
import { jpegPhoto } from './support/photos.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { listeningForChanges, withChangesUnheard } from './support/unheard-changes.ts';

// Status reads keep the job's row (JOB_CACHE_SECONDS): PostgreSQL's notification of a change to it
// drops the entry at once, whoever wrote; unheard, the entry lapses after the TTL. The app here
// keeps rows for 300 s, far longer than any test runs: a change seen at all was heard, not a lapse.
// No worker runs here: the jobs stay pending unless a test changes them.
describe('job status cache', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ JOB_CACHE_SECONDS: '300' });
  });

  afterAll(async () => {
    await t?.close();
  });

  async function pendingJob(bearer: string, app = t): Promise<string> {
    const link = await claimUploadLink(app, bearer);
    expect((await put(app, link.uploadLink, jpegPhoto, 'image/jpeg')).statusCode).toBe(200);
    const accepted = await requestWatermark(app, bearer, {
      fileId: link.fileId,
      options: { watermarkType: ['c2pa'] },
    });
    return (accepted.json() as { requestId: string }).requestId;
  }

  const read = (bearer: string, requestId: string, app = t) =>
    app.app.inject({
      method: 'GET',
      url: `/watermark/${requestId}`,
      headers: { authorization: bearer },
    });

  const fail = (requestId: string, app = t) =>
    app.prisma.watermarkJob.update({
      where: { id: requestId },
      data: { status: 'failed', errorCode: 'invalid_image', errorMessage: 'not an image' },
    });

  /** Resolves once the job reads as failed. */
  const untilFailed = (bearer: string, requestId: string, app = t) =>
    waitFor(
      async () => (await read(bearer, requestId, app)).json().status === 'failed',
      `job ${requestId} read as failed`,
    );

  it('a status change by any writer (here SQL, outside the API) is heard at once', async () => {
    const { bearer } = await t.newClient('poller');
    const requestId = await pendingJob(bearer);
    expect((await read(bearer, requestId)).json().status).toBe('pending');
    await fail(requestId);
    // Seen long before the 300 s the entry would otherwise live.
    await untilFailed(bearer, requestId);
    expect((await read(bearer, requestId)).json()).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_image' },
    });
  });

  it('a kept row needs no query; unheard, a change still shows after the TTL', async () => {
    // An app of its own with a short TTL, so the lapse comes within the test.
    const ttlMs = 2_000;
    const short = await startTestApp({ JOB_CACHE_SECONDS: String(ttlMs / 1000) });
    try {
      const { bearer } = await short.newClient('unheard');
      const requestId = await pendingJob(bearer, short);
      await listeningForChanges(short);
      // Taken before the read that keeps the row: its entry lives at least until before + TTL,
      // however slowly anything below runs.
      const before = Date.now();
      expect((await read(bearer, requestId, short)).json().status).toBe('pending');
      const trigger = { table: 'watermark_jobs', name: 'watermark_jobs_changed' };
      await withChangesUnheard(short, trigger, async () => {
        await fail(requestId, short);
        // The database says failed and nobody told the API: until the entry lapses, every read
        // is answered from the cache.
        await untilFailed(bearer, requestId, short);
        expect(Date.now()).toBeGreaterThanOrEqual(before + ttlMs);
      });
    } finally {
      await short.close();
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
    // Not found long before the 300 s the entry would otherwise live.
    await waitFor(
      async () => (await read(bearer, requestId)).statusCode === 404,
      `deleted job ${requestId} not found`,
    );
  });
});
