import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../src/index.ts';

// s3rver is an S3-compatible server that runs in-process: the driver is exercised over real
// HTTP with real SigV4 presigning, as against any other S3-compatible store.
describe('S3Storage against an S3-compatible server', () => {
  let directory: string;
  let server: S3rver;
  let storage: S3Storage;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'hallmark-s3-'));
    server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory,
      configureBuckets: [{ name: 'hallmark', configs: [] }],
    });
    const { port } = await server.run();
    storage = new S3Storage({
      bucket: 'hallmark',
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${port}`,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
  });

  afterAll(async () => {
    await server?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('writes, reads, sizes and deletes objects', async () => {
    const stored = await storage.write('outputs/r1/a.png', Buffer.from('pixels'), 'image/png');
    expect(stored.sizeBytes).toBe(6);
    expect(Buffer.from(await storage.read('outputs/r1/a.png')).toString()).toBe('pixels');
    expect(await storage.size('outputs/r1/a.png')).toBe(6);
    await storage.delete('outputs/r1/a.png');
    expect(await storage.size('outputs/r1/a.png')).toBeNull();
  });

  it('gives presigned links that upload with the declared type and download the bytes', async () => {
    const expiresAt = new Date(Date.now() + 60_000);
    const upload = await storage.uploadLink('uploads/f1/photo.jpg', 'image/jpeg', expiresAt);
    const put = await fetch(upload, {
      method: 'PUT',
      headers: { 'content-type': 'image/jpeg' },
      body: Buffer.from('jpeg bytes'),
    });
    expect(put.status).toBe(200);
    const download = await storage.downloadLink('uploads/f1/photo.jpg', {
      expiresAt,
      contentType: 'image/jpeg',
    });
    const got = await fetch(download);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe('jpeg bytes');
    expect(got.headers.get('content-disposition')).toContain('photo.jpg');
  });
});
