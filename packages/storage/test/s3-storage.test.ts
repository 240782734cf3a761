import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkSigner, S3Storage, UploadTooLargeError } from '../src/index.ts';

const signer = new LinkSigner(new Uint8Array(32).fill(7));

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
      baseUrl: 'http://127.0.0.1:3000',
      signer,
      scratchDir: join(directory, 'scratch'),
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

  it('streams an object from a local file and back into a new one, with the same digest', async () => {
    const source = join(directory, 'media.bin');
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    await writeFile(source, bytes);
    const digest = createHash('sha256').update(bytes).digest('hex');
    const stored = await storage.writeFromFile('outputs/r2/media.mp4', source, 'video/mp4');
    expect(stored).toEqual({ sizeBytes: bytes.length, sha256: digest });
    const copy = join(directory, 'copy.bin');
    expect(await storage.readToFile('outputs/r2/media.mp4', copy)).toEqual(stored);
    expect((await readFile(copy)).equals(bytes)).toBe(true);
    // The target must be new: a file already there is neither overwritten nor removed.
    await expect(storage.readToFile('outputs/r2/media.mp4', source)).rejects.toThrow(/EEXIST/);
    expect((await readFile(source)).equals(bytes)).toBe(true);
  });

  it("hands out the API's links, with the API's signature parameter, never the store's", async () => {
    const expiresAt = new Date(Date.now() + 60_000);
    const upload = new URL(
      await storage.uploadLink('uploads/f1/photo.jpg', 'image/jpeg', expiresAt),
    );
    const download = new URL(
      await storage.downloadLink('uploads/f1/photo.jpg', { expiresAt, contentType: 'image/jpeg' }),
    );
    for (const link of [upload, download]) {
      expect(link.origin).toBe('http://127.0.0.1:3000');
      expect(link.pathname).toBe('/storage/uploads/f1/photo.jpg');
      expect([...link.searchParams.keys()].sort()).toEqual(['expires', 'signature']);
    }
    const expires = Math.floor(expiresAt.getTime() / 1000);
    expect(upload.searchParams.get('signature')).toBe(
      signer.sign({ method: 'PUT', key: 'uploads/f1/photo.jpg', expires }),
    );
    expect(download.searchParams.get('signature')).toBe(
      signer.sign({ method: 'GET', key: 'uploads/f1/photo.jpg', expires }),
    );
  });

  it('receives an upload into scratch, stores it on commit, and serves it by a short redirect', async () => {
    async function* body() {
      yield Buffer.from('jpeg ');
      yield Buffer.from('bytes');
    }
    const received = await storage.receive('uploads/f2/photo.jpg', body(), 1_000, 'image/jpeg');
    expect(received.sizeBytes).toBe(10);
    expect(Buffer.from(received.head).toString()).toBe('jpeg bytes');
    expect(await storage.size('uploads/f2/photo.jpg')).toBeNull();
    await received.commit();
    expect(await readdir(join(directory, 'scratch'))).toEqual([]);
    const served = await storage.download('uploads/f2/photo.jpg', 'image/jpeg');
    if (served?.kind !== 'redirect') throw new Error('expected a redirect');
    const got = await fetch(served.url);
    expect(got.status).toBe(200);
    expect(await got.text()).toBe('jpeg bytes');
    expect(got.headers.get('content-disposition')).toContain('photo.jpg');
    expect(new URL(served.url).searchParams.get('X-Amz-Expires')).toBe('60');
    expect(await storage.download('uploads/none/photo.jpg', 'image/jpeg')).toBeNull();
  });

  it('a refused upload leaves nothing, in the store or in scratch', async () => {
    async function* big() {
      for (let i = 0; i < 10; i++) yield new Uint8Array(200);
    }
    await expect(
      storage.receive('uploads/f3/photo.jpg', big(), 1_000, 'image/jpeg'),
    ).rejects.toThrow(UploadTooLargeError);
    async function* small() {
      yield Buffer.from('not an image');
    }
    const received = await storage.receive('uploads/f3/photo.jpg', small(), 1_000, 'image/jpeg');
    await received.discard();
    expect(await readdir(join(directory, 'scratch'))).toEqual([]);
    expect(await storage.size('uploads/f3/photo.jpg')).toBeNull();
  });
});
