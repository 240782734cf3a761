import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HANG_MS } from '@hallmark/runtime/testing';
import { HallmarkApiError, uploadFile, waitForJob } from '@hallmark/sdk';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegPhoto, pngImage } from './support/photos.ts';
import { type RunningService, startService } from './support/service.ts';

// The whole service on an S3-compatible store (s3rver, in-process, real SigV4): clients see only
// the API's links, with their `signature` parameter.
describe('the service on S3-compatible storage', () => {
  let directory: string;
  let server: S3rver;
  let service: RunningService;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'hallmark-s3-e2e-'));
    server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory,
      configureBuckets: [{ name: 'hallmark', configs: [] }],
    });
    const { port } = await server.run();
    service = await startService({
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'hallmark',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    });
  });

  afterAll(async () => {
    await service?.close();
    await server?.close();
    await rm(directory, { recursive: true, force: true });
  });

  function expectApiLink(link: string) {
    const url = new URL(link);
    expect(url.origin).toBe(service.baseUrl);
    expect(url.pathname).toMatch(/^\/storage\//);
    expect([...url.searchParams.keys()].sort()).toEqual(['expires', 'signature']);
    expect(link).not.toMatch(/X-Amz/i);
  }

  it('upload, job and download through links carrying `signature`; the bytes are the output', async () => {
    const { client } = await service.newClient();
    const link = await client.createUploadLink({ contentType: 'image/jpeg', fileName: 'p.jpg' });
    expectApiLink(link.uploadLink);
    await uploadFile(link.uploadLink, jpegPhoto, 'image/jpeg');
    const accepted = await client.createWatermarkJob({
      fileId: link.fileId,
      options: { watermarkType: ['c2pa'] },
    });
    const job = await waitForJob(client, accepted.requestId, { timeoutMs: HANG_MS });
    if (job.watermarkedUrl === undefined) throw new Error('no watermarkedUrl');
    expectApiLink(job.watermarkedUrl);

    // The API answers the link with a short redirect to the store.
    const first = await fetch(job.watermarkedUrl, { redirect: 'manual' });
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toContain('X-Amz-Signature');
    const download = await fetch(job.watermarkedUrl);
    expect(download.status).toBe(200);
    const bytes = new Uint8Array(await download.arrayBuffer());
    const row = await service.prisma.watermarkJob.findUniqueOrThrow({
      where: { id: accepted.requestId },
    });
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(row.outputSha256);

    // A tampered link is refused by the API, before the store is asked.
    const tampered = new URL(job.watermarkedUrl);
    tampered.searchParams.set('signature', 'A'.repeat(43));
    expect((await fetch(tampered, { redirect: 'manual' })).status).toBe(403);
  });

  it('uploads are checked as with local disk: type by magic bytes, single use', async () => {
    const { client } = await service.newClient();
    const link = await client.createUploadLink({ contentType: 'image/jpeg', fileName: 'p.jpg' });
    const wrong = await fetch(link.uploadLink, {
      method: 'PUT',
      headers: { 'content-type': 'image/jpeg' },
      body: pngImage,
    });
    expect(wrong.status).toBe(415);
    const job = await client
      .createWatermarkJob({ fileId: link.fileId, options: { watermarkType: ['c2pa'] } })
      .catch((error: unknown) => error);
    expect(job).toBeInstanceOf(HallmarkApiError);
    expect((job as HallmarkApiError).status).toBe(409);
    // The refused upload left the link usable; once used, it is spent.
    await uploadFile(link.uploadLink, jpegPhoto, 'image/jpeg');
    const again = await fetch(link.uploadLink, {
      method: 'PUT',
      headers: { 'content-type': 'image/jpeg' },
      body: jpegPhoto,
    });
    expect(again.status).toBe(409);
  });
});
