import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PixelPool } from '@hallmark/runtime/pixels';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { jpegPhoto } from './support/photos.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const photos = join(import.meta.dirname, '../../../fixtures/photos');

function expectProblem(res: LightMyRequestResponse, status: number, type: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.json().type).toBe(`https://hallmark.dev/problems/${type}`);
}

describe('verification in the request: bounded per API process', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const verifyNow = (app: TestApp, bearer: string) =>
    app.app.inject({
      method: 'POST',
      url: '/verify/file',
      headers: { authorization: bearer, 'content-type': 'image/jpeg' },
      payload: jpegPhoto,
    });

  it('answers 503 with Retry-After when every pixel place is taken and the queue is full', async () => {
    t = await startTestApp({ VERIFY_SYNC_QUEUE: '0' });
    const { bearer } = await t.newClient();
    // The process's two places, taken by reads of a 12 MP photo.
    const pool = t.app.get(PixelPool);
    const big = await readFile(join(photos, 'sunset-12mp.jpg'));
    const never = new AbortController().signal;
    const taking = [1, 2].map(() => pool.read({ bytes: big, maxPixels: 50_000_000 }, never));
    const before = await t.snapshot();
    const refused = await verifyNow(t, bearer);
    expectProblem(refused, 503, 'service-unavailable');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await t.snapshot()).toEqual(before);
    // Once they are done, the same request is taken.
    await Promise.all(taking);
    const taken = await verifyNow(t, bearer);
    expect(taken.statusCode, taken.body).toBe(200);
  });

  it('answers 503 when the verification runs out of its time, not 500', async () => {
    t = await startTestApp({ JOB_TIMEOUT_MS: '1' });
    const { bearer } = await t.newClient();
    expectProblem(await verifyNow(t, bearer), 503, 'service-unavailable');
  });

  it('reads smaller images for anonymous /matches/byContent, before decoding them', async () => {
    t = await startTestApp({
      SOFT_BINDING_API_PUBLIC: 'true',
      VERIFY_ANONYMOUS_MAX_PIXELS: '100000',
    });
    const lookup = (bytes: Buffer) =>
      t?.app.inject({
        method: 'POST',
        url: '/matches/byContent',
        headers: { 'content-type': 'image/jpeg' },
        payload: bytes,
        remoteAddress: '10.2.2.2',
      });
    const large = await lookup(await readFile(join(photos, 'fig-0.25mp.jpg')));
    expectProblem(large as LightMyRequestResponse, 422, 'image-unreadable');
    expect(large?.json().detail).toContain('100000 pixels');
    const small = await lookup(await readFile(join(photos, 'fig-0.25mp.jpg')).then(shrink));
    expect(small?.statusCode, small?.body).toBe(200);
  });
});

/** The photo at a quarter of its pixels (under the anonymous limit above). */
async function shrink(bytes: Buffer): Promise<Buffer> {
  return sharp(bytes).resize({ width: 250 }).jpeg().toBuffer();
}
