import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { waitFor } from '@hallmark/runtime/testing';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisService } from '../src/redis/redis.service.ts';
import { claimUploadLink, pathOf, put, requestWatermark } from './support/flow.ts';
import { jpegPhoto, pngImage } from './support/photos.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const PROBLEMS = 'https://hallmark.dev/problems/';

function expectProblem(res: LightMyRequestResponse, status: number, slug: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const problem = res.json();
  expect(problem).toMatchObject({ status, type: `${PROBLEMS}${slug}` });
  return problem as { detail?: string; errors?: Array<{ path: string; message: string }> };
}

describe('bad input: a clear problem, nothing stored or lost', () => {
  let t: TestApp;
  let alice: { bearer: string };
  let bob: { bearer: string };
  let uploaded: { fileId: string };
  let pending: { fileId: string; uploadLink: string };
  let bobsJob: { requestId: string };

  beforeAll(async () => {
    t = await startTestApp({ UPLOAD_MAX_BYTES: String(jpegPhoto.length + 10) });
    alice = await t.newClient('alice');
    bob = await t.newClient('bob');
    uploaded = await claimUploadLink(t, alice.bearer);
    const link = (await t.prisma.file.findUniqueOrThrow({ where: { id: uploaded.fileId } }))
      .storageKey;
    expect(link).toContain(uploaded.fileId);
    const upload = await claimUploadLink(t, alice.bearer);
    expect((await put(t, upload.uploadLink, jpegPhoto, 'image/jpeg')).statusCode).toBe(200);
    uploaded = upload;
    pending = await claimUploadLink(t, alice.bearer);
    const bobsUpload = await claimUploadLink(t, bob.bearer);
    expect((await put(t, bobsUpload.uploadLink, jpegPhoto, 'image/jpeg')).statusCode).toBe(200);
    const job = await requestWatermark(t, bob.bearer, {
      fileId: bobsUpload.fileId,
      options: { watermarkType: ['c2pa'] },
    });
    expect(job.statusCode).toBe(202);
    bobsJob = job.json();
  });

  afterAll(async () => {
    await t?.close();
  });

  async function unchanged(send: () => Promise<LightMyRequestResponse>) {
    const before = await t.snapshot();
    const res = await send();
    expect(await t.snapshot()).toEqual(before);
    return res;
  }

  const validBody = () => ({
    fileId: uploaded.fileId,
    options: { watermarkType: ['invisible', 'c2pa'] },
  });

  it('401 without a bearer token, with an unknown one, and with a malformed one', async () => {
    for (const authorization of [
      undefined,
      `Bearer hm_aaaaaaaa_${'A'.repeat(43)}`,
      'Basic abc',
      'Bearer x',
    ]) {
      const res = await unchanged(() =>
        t.app.inject({
          method: 'POST',
          url: '/watermark',
          headers: authorization === undefined ? {} : { authorization },
          payload: validBody(),
        }),
      );
      expectProblem(res, 401, 'unauthorized');
      expect(res.headers['www-authenticate']).toContain('Bearer');
    }
  });

  it('401 for a revoked key and for the access tokens it issued', async () => {
    const carol = await t.newClient('carol');
    const token = await t.app.inject({
      method: 'POST',
      url: '/auth/token',
      headers: { authorization: carol.bearer },
    });
    expect(token.statusCode).toBe(201);
    const { accessToken } = token.json();
    const viaToken = await t.app.inject({
      method: 'GET',
      url: `/watermark/${bobsJob.requestId}`,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expectProblem(viaToken, 404, 'not-found');

    await t.prisma.apiKey.update({
      where: { id: carol.apiKeyId },
      data: { revokedAt: new Date() },
    });
    // The app may still hold the key in its cache until PostgreSQL's notification of the change
    // is heard: wait for that (a read changes nothing), then try to write with it.
    await waitFor(
      async () =>
        (
          await t.app.inject({
            method: 'GET',
            url: '/watermark/00000000-0000-4000-8000-000000000000',
            headers: { authorization: carol.bearer },
          })
        ).statusCode === 401,
      "carol's revocation heard",
    );
    for (const bearer of [carol.bearer, `Bearer ${accessToken}`]) {
      const res = await unchanged(() =>
        t.app.inject({
          method: 'POST',
          url: '/claim/file-upload-link',
          headers: { authorization: bearer },
          payload: { contentType: 'image/jpeg', fileName: 'a.jpg' },
        }),
      );
      expectProblem(res, 401, 'unauthorized');
    }
  });

  it("404 for another key's file and another key's job", async () => {
    const file = await unchanged(() => requestWatermark(t, bob.bearer, validBody()));
    expectProblem(file, 404, 'not-found');
    const job = await unchanged(() =>
      t.app.inject({
        method: 'GET',
        url: `/watermark/${bobsJob.requestId}`,
        headers: { authorization: alice.bearer },
      }),
    );
    expectProblem(job, 404, 'not-found');
  });

  it('400 for a malformed UUID in the path and in the body', async () => {
    const path = await unchanged(() =>
      t.app.inject({
        method: 'GET',
        url: '/watermark/not-a-uuid',
        headers: { authorization: alice.bearer },
      }),
    );
    expect(expectProblem(path, 400, 'validation-error').errors).toEqual([
      { path: 'requestId', message: expect.any(String) },
    ]);
    const body = await unchanged(() =>
      requestWatermark(t, alice.bearer, { fileId: '1234', options: { watermarkType: ['c2pa'] } }),
    );
    expect(expectProblem(body, 400, 'validation-error').errors?.map((e) => e.path)).toEqual([
      'fileId',
    ]);
  });

  it('400 listing each unknown field and each wrong type', async () => {
    const res = await unchanged(() =>
      requestWatermark(t, alice.bearer, {
        fileId: uploaded.fileId,
        colour: 'red',
        options: { watermarkType: ['c2pa'], mintNft: 'yes', storeIpfs: 1, extra: true },
      }),
    );
    const paths = expectProblem(res, 400, 'validation-error')
      .errors?.map((e) => e.path)
      .sort();
    expect(paths).toEqual(['colour', 'options.extra', 'options.mintNft', 'options.storeIpfs']);
  });

  it('400 for an empty watermarkType and for an unknown technique', async () => {
    for (const watermarkType of [[], ['invisible', 'sparkle']]) {
      const res = await unchanged(() =>
        requestWatermark(t, alice.bearer, { fileId: uploaded.fileId, options: { watermarkType } }),
      );
      expect(expectProblem(res, 400, 'validation-error').errors?.[0]?.path).toMatch(
        /^options\.watermarkType/,
      );
    }
  });

  it('400 for a creationDate that is not a real YYYY-MM-DD date', async () => {
    for (const creationDate of ['2025-02-30', '2025-13-01', '22-11-2026', 'yesterday']) {
      const res = await unchanged(() =>
        requestWatermark(t, alice.bearer, {
          fileId: uploaded.fileId,
          options: { watermarkType: ['c2pa'], data: { creationDate } },
        }),
      );
      expect(expectProblem(res, 400, 'validation-error').errors?.[0]?.path).toBe(
        'options.data.creationDate',
      );
    }
  });

  it('400 for malformed JSON and 415 for an upload link of a type that cannot be signed', async () => {
    const json = await unchanged(() =>
      t.app.inject({
        method: 'POST',
        url: '/watermark',
        headers: { authorization: alice.bearer, 'content-type': 'application/json' },
        payload: '{"fileId": ',
      }),
    );
    expectProblem(json, 400, 'validation-error');
    const bmp = await unchanged(() =>
      t.app.inject({
        method: 'POST',
        url: '/claim/file-upload-link',
        headers: { authorization: alice.bearer },
        payload: { contentType: 'image/bmp', fileName: 'a.bmp' },
      }),
    );
    expectProblem(bmp, 415, 'unsupported-media-type');
  });

  it('409 when asking to watermark a file before its upload', async () => {
    const res = await unchanged(() =>
      requestWatermark(t, alice.bearer, {
        fileId: pending.fileId,
        options: { watermarkType: ['c2pa'] },
      }),
    );
    expectProblem(res, 409, 'file-not-uploaded');
  });

  it('400 for an upload with another Content-Type than declared', async () => {
    const res = await unchanged(() => put(t, pending.uploadLink, pngImage, 'image/png'));
    expectProblem(res, 400, 'validation-error');
  });

  it('a movie may pass the image limit (it is signed in bounded memory); a WAV, held whole, may not', async () => {
    const media = join(import.meta.dirname, '../../../fixtures/media');
    const padding = Buffer.alloc(jpegPhoto.length);
    const movie = Buffer.concat([await readFile(join(media, 'sample.mp4')), padding]);
    const movieLink = await claimUploadLink(t, alice.bearer, 'video/mp4');
    expect((await put(t, movieLink.uploadLink, movie, 'video/mp4')).statusCode).toBe(200);
    const sound = Buffer.concat([await readFile(join(media, 'sample.wav')), padding]);
    const soundLink = await claimUploadLink(t, alice.bearer, 'audio/wav');
    const refused = await unchanged(() => put(t, soundLink.uploadLink, sound, 'audio/wav'));
    const problem = expectProblem(refused, 413, 'payload-too-large');
    expect(problem.detail).toBe(
      `Files of type audio/wav may be at most ${jpegPhoto.length + 10} bytes.`,
    );
  });

  it('413 for an upload over the size limit, and the link still works afterwards', async () => {
    // A link of its own: the others here must stay unused.
    const link = await claimUploadLink(t, alice.bearer);
    const big = Buffer.concat([jpegPhoto, Buffer.alloc(1_000)]);
    const res = await unchanged(() => put(t, link.uploadLink, big, 'image/jpeg'));
    expectProblem(res, 413, 'payload-too-large');
    const retry = await put(t, link.uploadLink, jpegPhoto, 'image/jpeg');
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({ fileId: link.fileId, sizeBytes: jpegPhoto.length });
  });

  it('415 for bytes that are not the declared image type', async () => {
    const res = await unchanged(() => put(t, pending.uploadLink, pngImage, 'image/jpeg'));
    expect(expectProblem(res, 415, 'unsupported-media-type').detail).toContain('image/png');
    const text = await unchanged(() =>
      put(t, pending.uploadLink, Buffer.from('hello, world'), 'image/jpeg'),
    );
    expectProblem(text, 415, 'unsupported-media-type');
  });

  it('409 for a reused upload link', async () => {
    const link = await claimUploadLink(t, alice.bearer);
    expect((await put(t, link.uploadLink, jpegPhoto, 'image/jpeg')).statusCode).toBe(200);
    const res = await unchanged(() => put(t, link.uploadLink, jpegPhoto, 'image/jpeg'));
    expectProblem(res, 409, 'upload-already-used');
  });

  it('403 for a tampered or expired link signature', async () => {
    const url = new URL(pending.uploadLink);
    const tampered = [
      (u: URL) =>
        u.searchParams.set('signature', `${u.searchParams.get('signature')?.slice(0, -2)}AA`),
      (u: URL) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 60)),
      (u: URL) => {
        u.pathname = u.pathname.replace(pending.fileId, uploaded.fileId);
      },
      (u: URL) => u.searchParams.delete('signature'),
    ];
    for (const change of tampered) {
      const u = new URL(url);
      change(u);
      const res = await unchanged(() => put(t, u.toString(), jpegPhoto, 'image/jpeg'));
      expectProblem(res, 403, 'invalid-signature');
    }
    const download = await unchanged(() =>
      t.app.inject({ method: 'GET', url: pathOf(pending.uploadLink) }),
    );
    expectProblem(download, 403, 'invalid-signature');
  });

  it('the same Idempotency-Key and body give the same job; another body gives 422', async () => {
    const headers = { 'idempotency-key': 'retry-1' };
    const first = await requestWatermark(t, alice.bearer, validBody(), headers);
    expect(first.statusCode).toBe(202);
    const again = await unchanged(() => requestWatermark(t, alice.bearer, validBody(), headers));
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual(first.json());
    const other = await unchanged(() =>
      requestWatermark(
        t,
        alice.bearer,
        { fileId: uploaded.fileId, options: { watermarkType: ['c2pa'] } },
        headers,
      ),
    );
    expectProblem(other, 422, 'idempotency-key-reused');
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After and RateLimit headers past the per-key limit', async () => {
    const t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const client = await t.newClient();
      const other = await t.newClient();
      const call = (bearer: string) =>
        t.app.inject({
          method: 'GET',
          url: `/watermark/${crypto.randomUUID()}`,
          headers: { authorization: bearer },
        });
      const answers = [];
      for (let i = 0; i < 4; i += 1) answers.push(await call(client.bearer));
      expect(answers.map((a) => a.statusCode)).toEqual([404, 404, 404, 429]);
      expect(answers[0]?.headers['ratelimit-limit']).toBe('3');
      expect(answers[2]?.headers['ratelimit-remaining']).toBe('0');
      const limited = answers[3];
      if (limited === undefined) throw new Error('no answer');
      expectProblem(limited, 429, 'rate-limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Another key has its own budget.
      expect((await call(other.bearer)).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('a large limit is counted in reserved batches, still exactly within one process', async () => {
    // 200 a minute: batches of 4 tokens, one Redis round trip per 4 requests.
    const t = await startTestApp({ RATE_LIMIT_PER_MINUTE: '200' });
    try {
      const client = await t.newClient();
      const statuses: number[] = [];
      const remaining: number[] = [];
      for (let i = 0; i < 201; i += 1) {
        const answer = await t.app.inject({
          method: 'GET',
          url: `/watermark/${crypto.randomUUID()}`,
          headers: { authorization: client.bearer },
        });
        statuses.push(answer.statusCode);
        remaining.push(Number(answer.headers['ratelimit-remaining'] ?? Number.NaN));
      }
      expect(statuses.slice(0, 200).every((status) => status === 404)).toBe(true);
      expect(statuses[200]).toBe(429);
      // The remaining count goes down by one a request, whether counted here or in Redis.
      expect(remaining.slice(0, 200)).toEqual(Array.from({ length: 200 }, (_, i) => 199 - i));
      // Redis saw whole batches: 50 reservations of 4, then the refused one's.
      const count = await t.app.get(RedisService).client.get(`ratelimit:${client.apiKeyId}`);
      expect(Number(count)).toBe(204);
    } finally {
      await t.close();
    }
  });
});
