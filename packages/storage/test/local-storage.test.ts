import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  InvalidObjectKeyError,
  LinkSigner,
  LocalStorage,
  safeFileName,
  UploadTooLargeError,
} from '../src/index.ts';

async function* chunks(...parts: string[]): AsyncIterable<Uint8Array> {
  for (const part of parts) yield Buffer.from(part);
}

async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

describe('LocalStorage', () => {
  let root: string;
  let storage: LocalStorage;
  const signer = new LinkSigner(new Uint8Array(32).fill(1));

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'hallmark-storage-'));
    storage = new LocalStorage({ root, baseUrl: 'http://127.0.0.1:3000/', signer });
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes, reads, sizes and overwrites an object in place', async () => {
    const first = await storage.write('outputs/r1/a.png', Buffer.from('one'));
    expect(first).toEqual({
      sizeBytes: 3,
      sha256: '7692c3ad3540bb803c020b3aee66cd8887123234ea0c6e7143c0add73ff431ed',
    });
    await storage.write('outputs/r1/a.png', Buffer.from('second'));
    expect(Buffer.from(await storage.read('outputs/r1/a.png')).toString()).toBe('second');
    expect(await storage.size('outputs/r1/a.png')).toBe(6);
    expect(await filesUnder(root)).toEqual(['outputs/r1/a.png']);
    await storage.delete('outputs/r1/a.png');
    expect(await storage.size('outputs/r1/a.png')).toBeNull();
  });

  it('streams an object from a local file and back into a new one, leaving no temporary', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'hallmark-media-'));
    try {
      const source = join(outside, 'media.bin');
      const bytes = randomBytes(3 * 1024 * 1024 + 17);
      await writeFile(source, bytes);
      const digest = createHash('sha256').update(bytes).digest('hex');
      const stored = await storage.writeFromFile('outputs/r2/media.mp4', source, 'video/mp4');
      expect(stored).toEqual({ sizeBytes: bytes.length, sha256: digest });
      expect(await filesUnder(root)).toEqual(['outputs/r2/media.mp4']);
      const copy = join(outside, 'copy.bin');
      expect(await storage.readToFile('outputs/r2/media.mp4', copy)).toEqual(stored);
      expect((await readFile(copy)).equals(bytes)).toBe(true);
      // The target must be new: a file already there is neither overwritten nor removed.
      await expect(storage.readToFile('outputs/r2/media.mp4', source)).rejects.toThrow(/EEXIST/);
      expect((await readFile(source)).equals(bytes)).toBe(true);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('signs links on its own base URL that verify for their method only', async () => {
    const link = new URL(
      await storage.uploadLink('uploads/f1/a.jpg', 'image/jpeg', new Date(5_000_000)),
    );
    expect(link.origin).toBe('http://127.0.0.1:3000');
    expect(link.pathname).toBe('/storage/uploads/f1/a.jpg');
    const claims = { method: 'PUT', key: 'uploads/f1/a.jpg', expires: 5_000 } as const;
    expect(signer.verify(claims, link.searchParams.get('signature') ?? '', 0)).toBe('valid');
    expect(
      signer.verify({ ...claims, method: 'GET' }, link.searchParams.get('signature') ?? '', 0),
    ).toBe('bad_signature');
  });

  it('receives a streamed body with its size, digest and first bytes, kept only on commit', async () => {
    const upload = await storage.receive('uploads/f2/b.jpg', chunks('he', 'llo'), 10);
    expect(upload.sizeBytes).toBe(5);
    expect(Buffer.from(upload.head).toString()).toBe('hello');
    expect(await storage.size('uploads/f2/b.jpg')).toBeNull();
    await upload.commit();
    expect(Buffer.from(await storage.read('uploads/f2/b.jpg')).toString()).toBe('hello');
  });

  it('keeps nothing of a discarded or oversized upload', async () => {
    const upload = await storage.receive('uploads/f3/c.jpg', chunks('abc'), 10);
    await upload.discard();
    await expect(
      storage.receive('uploads/f3/c.jpg', chunks('12345', '67890', 'x'), 10),
    ).rejects.toBeInstanceOf(UploadTooLargeError);
    expect(await filesUnder(root)).toEqual([]);
  });

  it('refuses keys that could leave the root', async () => {
    for (const key of ['../etc/passwd', 'uploads/../../x', '/abs/path', 'single', 'a/.hidden']) {
      await expect(storage.read(key)).rejects.toBeInstanceOf(InvalidObjectKeyError);
    }
  });

  it('makes client file names safe and keeps their extension', () => {
    expect(safeFileName('../../holiday photo (1).JPG')).toBe('holiday_photo__1_.JPG');
    expect(safeFileName('C:\\Users\\me\\x.png')).toBe('x.png');
    expect(safeFileName('...')).toBe('file');
  });
});
