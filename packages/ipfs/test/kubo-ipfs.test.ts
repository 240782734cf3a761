import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CID } from 'multiformats/cid';
import * as json from 'multiformats/codecs/json';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIpfsStore, EmbeddedIpfs, handleGatewayRequest, KuboIpfs } from '../src/index.ts';
import { type FakeKubo, startFakeKubo } from './support/fake-kubo.ts';
import {
  type FakePinningService,
  startFakePinningService,
} from './support/fake-pinning-service.ts';
import { deadUrl, serve, type TestServer } from './support/http-server.ts';
import { makeTempDir } from './support/temp-dir.ts';

describe('KuboIpfs against a fake Kubo RPC API', () => {
  let kubo: FakeKubo;
  let store: KuboIpfs;

  beforeAll(async () => {
    kubo = await startFakeKubo();
    store = new KuboIpfs({ apiUrl: `${kubo.apiUrl}/`, authorization: 'Basic dXNlcjpwYXNz' });
  });

  afterAll(async () => {
    await store.close();
    await kubo.close();
  });

  it('stores JSON with block/put under the locally computed json CID, pinned', async () => {
    const document = { fileId: 'f-1', watermarked: true };
    const cid = await store.addJson(document);

    expect(cid.toString()).toBe(
      CID.create(1, json.code, await sha256.digest(json.encode(document))).toString(),
    );
    const call = kubo.calls.at(-1);
    expect(call?.command).toBe('block/put');
    expect(Object.fromEntries(call?.params ?? [])).toEqual({
      'cid-codec': 'json',
      mhtype: 'sha2-256',
      pin: 'true',
    });
    expect(kubo.lastAuthorization()).toBe('Basic dXNlcjpwYXNz');
    expect(kubo.pins.has(cid.toString())).toBe(true);
    expect(await store.getJson(cid)).toEqual(document);
    expect(await store.resolvePath(cid)).toEqual({ cid, kind: 'json' });
  });

  it('adds files wrapped in a directory, CIDv1 with raw leaves, the same CIDs as the embedded node', async () => {
    const photo = randomBytes(50_000);
    const large = randomBytes(1_200_000);
    const entries = [
      { name: 'photo 1.jpg', bytes: photo },
      { name: 'large.png', bytes: large },
    ];
    const added = await store.addDirectory(entries);

    const params = kubo.calls.at(-1)?.params;
    expect(params?.get('cid-version')).toBe('1');
    expect(params?.get('raw-leaves')).toBe('true');
    expect(params?.get('wrap-with-directory')).toBe('true');
    expect(params?.get('chunker')).toBe('size-1048576');
    expect(added.files.map((file) => [file.name, file.size])).toEqual([
      ['photo 1.jpg', photo.length],
      ['large.png', large.length],
    ]);
    expect(added.files[0]?.cid.toString()).toBe(
      CID.create(1, raw.code, await sha256.digest(photo)).toString(),
    );

    const dir = await makeTempDir();
    const embedded = await EmbeddedIpfs.open(dir.path);
    try {
      const same = await embedded.addDirectory(entries);
      expect(added.cid.toString()).toBe(same.cid.toString());
    } finally {
      await embedded.close();
      await dir.remove();
    }

    expect(Buffer.from(await store.cat(added.cid, 'photo 1.jpg')).equals(photo)).toBe(true);
    expect(Buffer.from(await store.cat(added.cid, 'large.png')).equals(large)).toBe(true);
    expect(await store.resolvePath(added.cid)).toEqual({ cid: added.cid, kind: 'directory' });
    const block = await store.getBlock(added.cid);
    expect(CID.create(1, added.cid.code, await sha256.digest(block)).equals(added.cid)).toBe(true);
  });

  it('adds a local file as it would its bytes, on Kubo and on the embedded node', async () => {
    const dir = await makeTempDir();
    const embedded = await EmbeddedIpfs.open(join(dir.path, 'node'));
    try {
      const video = randomBytes(2 * 1024 * 1024 + 77);
      const path = join(dir.path, 'clip.mp4');
      await writeFile(path, video);
      const fromBytes = await embedded.addDirectory([{ name: 'clip.mp4', bytes: video }]);
      for (const node of [store, embedded]) {
        const fromFile = await node.addDirectory([{ name: 'clip.mp4', path }]);
        expect(fromFile.cid.toString()).toBe(fromBytes.cid.toString());
        expect(fromFile.files[0]?.size).toBe(video.length);
        expect(Buffer.from(await node.cat(fromFile.cid, 'clip.mp4')).equals(video)).toBe(true);
      }
    } finally {
      await embedded.close();
      await dir.remove();
    }
  });

  it('reads offline, so a missing block is ipfs_not_found rather than a network search', async () => {
    const missing = CID.create(1, raw.code, await sha256.digest(randomBytes(16)));
    await expect(store.getBlock(missing)).rejects.toMatchObject({ code: 'ipfs_not_found' });
    expect(kubo.calls.at(-1)?.params.get('offline')).toBe('true');
    await expect(store.cat(missing)).rejects.toMatchObject({ code: 'ipfs_not_found' });
    await expect(store.pin(missing)).rejects.toMatchObject({ code: 'ipfs_not_found' });
    const { cid } = await store.addDirectory([{ name: 'a.jpg', bytes: Buffer.from('a') }]);
    await expect(store.cat(cid, 'b.jpg')).rejects.toMatchObject({ code: 'ipfs_not_found' });
    await expect(store.cat(cid)).rejects.toMatchObject({ code: 'invalid_path' });
  });

  it('serves the gateway from Kubo just as from the embedded node', async () => {
    const { cid } = await store.addDirectory([{ name: 'a.webp', bytes: Buffer.from('webp!') }]);
    const file = await handleGatewayRequest(store, { cidAndPath: `${cid}/a.webp`, accept: '*/*' });
    expect(file.headers['content-type']).toBe('image/webp');
    expect(Buffer.from(file.body).toString()).toBe('webp!');
  });

  it('pins locally without a pinning service', async () => {
    const cid = await store.addJson({ pinned: 'locally' });
    expect(await store.pin(cid)).toEqual({ remote: 'not_configured' });
    expect(kubo.calls.at(-1)?.command).toBe('pin/add');
  });
});

describe('KuboIpfs when Kubo is not there or not well', () => {
  let broken: TestServer;

  beforeAll(async () => {
    broken = await serve(async (request) => {
      const command = new URL(request.url).pathname;
      if (command.endsWith('block/get')) return new Response('Bad Gateway', { status: 502 });
      if (command.endsWith('block/put')) return Response.json({ Key: 'bafkqaaa', Size: 0 });
      return new Response('404 page not found', { status: 404 });
    });
  });

  afterAll(async () => {
    await broken.close();
  });

  it('reports a refused connection as ipfs_unreachable', async () => {
    const store = await createIpfsStore({ driver: 'kubo', apiUrl: await deadUrl() });
    const cid = CID.create(1, raw.code, await sha256.digest(Buffer.from('x')));
    await expect(store.getBlock(cid)).rejects.toMatchObject({ code: 'ipfs_unreachable' });
    await expect(store.addJson({ a: 1 })).rejects.toMatchObject({ code: 'ipfs_unreachable' });
  });

  it('reports a timeout as ipfs_unreachable', async () => {
    const silent = await serve(() => new Promise<Response>(() => {}));
    try {
      const store = new KuboIpfs({ apiUrl: silent.url, timeoutMs: 100 });
      await expect(store.addJson({ a: 1 })).rejects.toMatchObject({
        code: 'ipfs_unreachable',
        message: expect.stringContaining('timed out'),
      });
    } finally {
      await silent.close();
    }
  });

  it('tells a dead backend behind a proxy, a wrong URL and a wrong answer apart', async () => {
    const store = new KuboIpfs({ apiUrl: broken.url });
    const cid = CID.create(1, raw.code, await sha256.digest(Buffer.from('x')));
    await expect(store.getBlock(cid)).rejects.toMatchObject({ code: 'ipfs_unreachable' });
    // A 404 page says "not found" but is not Kubo saying the block is missing.
    await expect(store.cat(cid)).rejects.toMatchObject({ code: 'ipfs_failed' });
    // Kubo answering another CID than the one the bytes hash to is caught.
    await expect(store.addJson({ a: 1 })).rejects.toMatchObject({ code: 'ipfs_failed' });
  });
});

describe('KuboIpfs with a pinning service', () => {
  let kubo: FakeKubo;
  let service: FakePinningService;

  beforeAll(async () => {
    [kubo, service] = await Promise.all([startFakeKubo(), startFakePinningService()]);
  });

  afterAll(async () => {
    await Promise.all([kubo.close(), service.close()]);
  });

  it('pins locally, then remotely, waiting until the service has pinned', async () => {
    const store = await createIpfsStore({
      driver: 'kubo',
      apiUrl: kubo.apiUrl,
      pinning: { endpoint: service.endpoint, token: service.token, pollIntervalMs: 1 },
    });
    const cid = await store.addJson({ pinned: 'remotely' });
    expect(await store.pin(cid, { name: 'file f-1' })).toEqual({ remote: 'pinned' });
    expect(kubo.pins.has(cid.toString())).toBe(true);
    expect(service.requests).toMatchObject([{ cid: cid.toString(), name: 'file f-1' }]);
  });

  it('unpins locally and at the service; unpinning again is no error', async () => {
    const store = await createIpfsStore({
      driver: 'kubo',
      apiUrl: kubo.apiUrl,
      pinning: { endpoint: service.endpoint, token: service.token, pollIntervalMs: 1 },
    });
    const cid = await store.addJson({ pinned: 'then removed' });
    await store.pin(cid, { name: 'file f-2' });
    await store.unpin(cid);
    expect(kubo.pins.has(cid.toString())).toBe(false);
    expect(service.requests.map((pin) => pin.cid)).not.toContain(cid.toString());
    await store.unpin(cid);
  });
});
