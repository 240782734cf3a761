import { randomBytes } from 'node:crypto';
import { Socket } from 'node:net';
import { CID } from 'multiformats/cid';
import * as json from 'multiformats/codecs/json';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createIpfsStore, EmbeddedIpfs, IpfsError } from '../src/index.ts';
import { makeTempDir, type TempDir } from './support/temp-dir.ts';

const DAG_PB = 0x70;

describe('EmbeddedIpfs', () => {
  let dir: TempDir;
  let store: EmbeddedIpfs;

  beforeEach(async () => {
    dir = await makeTempDir();
    store = await EmbeddedIpfs.open(dir.path);
  });

  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  it('stores JSON under the CID any IPFS implementation derives for its bytes', async () => {
    const document = { author: 'Ada', watermarked: true, watermarkTypes: ['invisible'] };
    const cid = await store.addJson(document);

    const expected = CID.create(1, json.code, await sha256.digest(json.encode(document)));
    expect(cid.toString()).toBe(expected.toString());
    expect(cid.toString()).toMatch(/^bagaaiera/);
    expect(await store.getJson(cid)).toEqual(document);
    expect(await store.resolvePath(cid)).toEqual({ cid, kind: 'json' });
    // The block is exactly the JSON text, and it hashes to the CID.
    const block = await store.getBlock(cid);
    expect(new TextDecoder().decode(block)).toBe(JSON.stringify(document));
    expect((await sha256.digest(block)).digest).toEqual(cid.multihash.digest);
  });

  it('puts files in a UnixFS directory (CIDv1, raw leaves) and reads them back exactly', async () => {
    const small = randomBytes(70_000);
    const large = randomBytes(2 * 1024 * 1024 + 123); // three 1 MiB chunks
    const added = await store.addDirectory([
      { name: 'photo.jpg', bytes: small },
      { name: 'big file.png', bytes: large },
    ]);

    expect(added.cid.version).toBe(1);
    expect(added.cid.code).toBe(DAG_PB);
    const [photo, big] = added.files;
    // A file within one chunk is a single raw block: its CID is the raw CID of its bytes.
    expect(photo?.cid.toString()).toBe(
      CID.create(1, raw.code, await sha256.digest(small)).toString(),
    );
    expect(photo?.size).toBe(small.length);
    expect(big?.cid.code).toBe(DAG_PB);
    expect(big?.size).toBe(large.length);

    expect(Buffer.from(await store.cat(added.cid, 'photo.jpg')).equals(small)).toBe(true);
    expect(Buffer.from(await store.cat(added.cid, '/big file.png')).equals(large)).toBe(true);
    expect(await store.resolvePath(added.cid)).toEqual({ cid: added.cid, kind: 'directory' });
    expect(await store.resolvePath(added.cid, 'photo.jpg')).toEqual({
      cid: photo?.cid,
      kind: 'file',
    });
  });

  it('keeps what it stored across close and reopen', async () => {
    const cid = await store.addJson({ fileId: 'f1' });
    const { cid: dirCid } = await store.addDirectory([
      { name: 'a.png', bytes: Buffer.from('png') },
    ]);
    await store.close();

    store = await EmbeddedIpfs.open(dir.path);
    expect(await store.getJson(cid)).toEqual({ fileId: 'f1' });
    expect(Buffer.from(await store.cat(dirCid, 'a.png')).toString()).toBe('png');
  });

  it('lets two nodes on one folder see each other’s writes at once', async () => {
    const other = await createIpfsStore({ driver: 'embedded', directory: dir.path });
    try {
      const fromOther = await other.addJson({ writtenBy: 'other' });
      expect(await store.getJson(fromOther)).toEqual({ writtenBy: 'other' });

      const { cid } = await store.addDirectory([{ name: 'x.webp', bytes: Buffer.from('webp') }]);
      expect(Buffer.from(await other.cat(cid, 'x.webp')).toString()).toBe('webp');
    } finally {
      await other.close();
    }
  });

  it('pins, and pinning again is not an error', async () => {
    const { cid } = await store.addDirectory([{ name: 'a.jpg', bytes: Buffer.from('jpg') }]);
    const document = await store.addJson({ a: 1 });
    expect(await store.pin(cid)).toEqual({ remote: 'not_configured' });
    expect(await store.pin(cid)).toEqual({ remote: 'not_configured' });
    expect(await store.pin(document)).toEqual({ remote: 'not_configured' });
  });

  it('unpins: the block is deleted; unpinning again is no error', async () => {
    const cid = await store.addJson({ record: 'alone' });
    await store.pin(cid);
    await store.unpin(cid);
    await expect(store.getBlock(cid)).rejects.toMatchObject({ code: 'ipfs_not_found' });
    await store.unpin(cid);
  });

  it('reports missing content as ipfs_not_found at once, without looking for a network', async () => {
    const missing = CID.create(1, json.code, await sha256.digest(json.encode({ never: 'stored' })));
    const missingDir = CID.parse('bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi');
    const { cid: dirCid } = await store.addDirectory([{ name: 'a.jpg', bytes: Buffer.from('a') }]);

    // Fails rather than looks: no connection is even attempted (the failures come from the
    // offline reads, not a lookup that gave up).
    const connect = vi.spyOn(Socket.prototype, 'connect');
    try {
      for (const attempt of [
        () => store.getBlock(missing),
        () => store.getJson(missing),
        () => store.resolvePath(missing),
        () => store.cat(missingDir, 'a.jpg'),
        () => store.cat(dirCid, 'b.jpg'),
        () => store.resolvePath(missing, 'inside'),
        () => store.pin(missingDir),
      ]) {
        await expect(attempt()).rejects.toMatchObject({ code: 'ipfs_not_found' });
      }
      expect(connect).not.toHaveBeenCalled();
    } finally {
      connect.mockRestore();
    }
  });

  it('refuses bad names and non-JSON documents with stable codes', async () => {
    const { cid, files } = await store.addDirectory([{ name: 'a.jpg', bytes: Buffer.from('a') }]);
    await expect(store.addDirectory([])).rejects.toMatchObject({ code: 'invalid_path' });
    await expect(store.addDirectory([{ name: '../x', bytes: Buffer.from('') }])).rejects.toThrow(
      IpfsError,
    );
    await expect(
      store.addDirectory([
        { name: 'a', bytes: Buffer.from('1') },
        { name: 'a', bytes: Buffer.from('2') },
      ]),
    ).rejects.toMatchObject({ code: 'invalid_path' });
    await expect(store.cat(cid, '..')).rejects.toMatchObject({ code: 'invalid_path' });
    await expect(store.cat(cid)).rejects.toMatchObject({ code: 'invalid_path' });
    await expect(store.getJson(files[0]?.cid ?? cid)).rejects.toMatchObject({
      code: 'invalid_cid',
    });
  });

  it('never opens a network connection', async () => {
    await store.close();
    const connect = vi.spyOn(Socket.prototype, 'connect');
    try {
      store = await EmbeddedIpfs.open(dir.path);
      const cid = await store.addJson({ offline: true });
      const added = await store.addDirectory([{ name: 'a.jpg', bytes: randomBytes(10) }]);
      await store.getBlock(cid);
      await store.cat(added.cid, 'a.jpg');
      await store.pin(added.cid);
      const missing = CID.create(1, raw.code, await sha256.digest(randomBytes(8)));
      await expect(store.getBlock(missing)).rejects.toMatchObject({ code: 'ipfs_not_found' });
      expect(connect).not.toHaveBeenCalled();
    } finally {
      connect.mockRestore();
    }
  });
});
