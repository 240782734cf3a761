import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { detectMark, payloadFromHex, readMarkAndFingerprint } from '@hallmark/watermark-core';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
// The built pool: its threads load the built pixel tasks beside it.
import { PIXELS_BUSY, PixelPool, pixelPoolLayout } from '../dist/pixels/pixel-pool.js';

const photos = join(import.meta.dirname, '../../../fixtures/photos');
const photo = (name: string) => readFile(join(photos, name));
const MAX_PIXELS = 50_000_000;

describe('pixelPoolLayout', () => {
  it('gives each image a thread up to one per core, and each thread its share of the cores', () => {
    expect(pixelPoolLayout(2, 2)).toEqual({ threads: 2, jobsPerThread: 1, libvipsThreads: 1 });
    expect(pixelPoolLayout(8, 8)).toEqual({ threads: 8, jobsPerThread: 1, libvipsThreads: 1 });
    expect(pixelPoolLayout(3, 2)).toEqual({ threads: 2, jobsPerThread: 2, libvipsThreads: 1 });
    expect(pixelPoolLayout(1, 4)).toEqual({ threads: 1, jobsPerThread: 1, libvipsThreads: 4 });
  });

  it('takes a thread count from PIXEL_THREADS, never more threads than images', () => {
    expect(pixelPoolLayout(4, 2, 1)).toEqual({ threads: 1, jobsPerThread: 4, libvipsThreads: 2 });
    expect(pixelPoolLayout(2, 8, 5)).toEqual({ threads: 2, jobsPerThread: 1, libvipsThreads: 4 });
  });
});

describe('PixelPool', () => {
  let pool: PixelPool | undefined;
  afterEach(async () => {
    await pool?.onApplicationShutdown();
  });

  // One thread, so that the tests below can count on two jobs sharing it.
  const start = (concurrency: number) => {
    pool = new PixelPool(pixelPoolLayout(concurrency, 2, 1), pino({ level: 'silent' }));
    return pool;
  };

  it('marks two images at once on one thread, each with its own payload', async () => {
    const pixels = start(2);
    const inputs = await Promise.all([photo('clock-1mp.jpg'), photo('wine-portrait-1mp.jpg')]);
    const payloads = ['0123456789abcdef', 'fedcba9876543210'];
    const marked = await Promise.all(
      inputs.map((bytes, i) =>
        pixels.embed(
          { bytes, payloadHex: payloads[i] ?? '', maxPixels: MAX_PIXELS },
          new AbortController().signal,
        ),
      ),
    );
    for (const [i, image] of marked.entries()) {
      const found = await detectMark(image.bytes);
      expect(found.payload).toBe(payloadFromHex(payloads[i] ?? ''));
      // The picture's fingerprint comes back with it, from the same thread.
      expect(image.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    }
  });

  it('fails a job out of time, ends the other job on its thread as transient, keeps working', async () => {
    const pixels = start(2);
    const big = await photo('sunset-12mp.jpg');
    const small = await photo('clock-1mp.jpg');
    const task = (bytes: Buffer) => ({
      bytes,
      payloadHex: '00000000000000aa',
      maxPixels: MAX_PIXELS,
    });
    // Both on the one thread: the 12 MP mark takes far longer than 50 ms.
    const late = pixels.embed(task(big), AbortSignal.timeout(50));
    const neighbour = pixels.embed(task(big), new AbortController().signal);
    await expect(late).rejects.toMatchObject({ name: 'TimeoutError' });
    // The thread was replaced under the neighbour: a transient failure, with no stable code.
    const error = await neighbour.then(
      () => undefined,
      (reason: unknown) => reason as { code?: unknown },
    );
    expect(error).toBeDefined();
    expect(error?.code).toBeUndefined();
    // The replacement thread marks the next image.
    const marked = await pixels.embed(task(small), new AbortController().signal);
    expect((await detectMark(marked.bytes)).payload).toBe(0xaan);
  });

  it('queues jobs beyond its places; a job that gives up waiting leaves the thread alone', async () => {
    const pixels = start(1);
    const big = await photo('sunset-12mp.jpg');
    const running = pixels.embed(
      { bytes: big, payloadHex: '00000000000000bb', maxPixels: MAX_PIXELS },
      new AbortController().signal,
    );
    // One place, taken: this job waits, then gives up before it ever reaches the thread.
    const waiting = pixels.embed(
      { bytes: big, payloadHex: '00000000000000cc', maxPixels: MAX_PIXELS },
      AbortSignal.timeout(50),
    );
    await expect(waiting).rejects.toMatchObject({ name: 'TimeoutError' });
    // The running job was not disturbed by the other's timeout.
    expect((await detectMark((await running).bytes)).payload).toBe(0xbbn);
  });

  it("reads a verified file's mark and fingerprint on a thread, as the caller's thread would", async () => {
    const pixels = start(1);
    const never = new AbortController().signal;
    const marked = await pixels.embed(
      {
        bytes: await photo('clock-1mp.jpg'),
        payloadHex: '00000000000000dd',
        maxPixels: MAX_PIXELS,
      },
      never,
    );
    // Through `reader`, as verification takes it (examineImage's readPixels).
    const read = await pixels.reader(never)(marked.bytes, MAX_PIXELS);
    const here = await readMarkAndFingerprint(marked.bytes, MAX_PIXELS);
    // The detection crosses the thread boundary whole: payload (a bigint) and geometry.
    expect(read.detection?.payload).toBe(0xddn);
    expect(read).toEqual(here);
    expect(read.fingerprint).toBe(marked.fingerprint);
    // A file that is no image fails with the engine's stable code, not a thread error.
    await expect(
      pixels.read({ bytes: new Uint8Array(64).fill(7), maxPixels: MAX_PIXELS }, never),
    ).rejects.toMatchObject({ code: 'invalid_image' });
  });

  it('refuses a read when its queue is full, at once and with its code; embeds still wait', async () => {
    pool = new PixelPool(pixelPoolLayout(1, 2, 1), pino({ level: 'silent' }), 1);
    const pixels = pool;
    const never = new AbortController().signal;
    const big = await photo('sunset-12mp.jpg');
    const first = pixels.read({ bytes: big, maxPixels: MAX_PIXELS }, never);
    const queued = pixels.read({ bytes: big, maxPixels: MAX_PIXELS }, never);
    await expect(pixels.read({ bytes: big, maxPixels: MAX_PIXELS }, never)).rejects.toMatchObject({
      code: PIXELS_BUSY,
    });
    const embed = pixels.embed(
      { bytes: big, payloadHex: '00000000000000ee', maxPixels: MAX_PIXELS },
      never,
    );
    // The refused read disturbed nothing: the others finish, and the queue takes reads again.
    await Promise.all([first, queued, embed]);
    expect((await pixels.read({ bytes: big, maxPixels: MAX_PIXELS }, never)).fingerprint).toMatch(
      /^[0-9a-f]{16}$/,
    );
  });
});
