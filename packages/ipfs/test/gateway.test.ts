import { randomBytes } from 'node:crypto';
import { Problem } from '@hallmark/schemas';
import { CID } from 'multiformats/cid';
import * as json from 'multiformats/codecs/json';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AddedDirectory,
  EmbeddedIpfs,
  type GatewayResponse,
  handleGatewayRequest,
  KuboIpfs,
} from '../src/index.ts';
import { deadUrl } from './support/http-server.ts';
import { makeTempDir, type TempDir } from './support/temp-dir.ts';

const RAW = 'application/vnd.ipld.raw';

/** Recomputes the CID of a served block from its bytes alone, as a trustless client does. */
async function cidOfServedBlock(like: CID, body: Uint8Array): Promise<CID> {
  return CID.create(1, like.code, await sha256.digest(body));
}

function problemOf(response: GatewayResponse) {
  expect(response.headers['content-type']).toBe('application/problem+json');
  return Problem.parse(JSON.parse(new TextDecoder().decode(response.body)));
}

describe('handleGatewayRequest', () => {
  const metadata = { author: 'Ada', watermarked: true, watermarkTypes: ['c2pa'], fileId: 'f-1' };
  const image = randomBytes(1_500_000); // two chunks: the file root is a dag-pb node
  let dir: TempDir;
  let store: EmbeddedIpfs;
  let jsonCid: CID;
  let added: AddedDirectory;

  beforeAll(async () => {
    dir = await makeTempDir();
    store = await EmbeddedIpfs.open(dir.path);
    jsonCid = await store.addJson(metadata);
    added = await store.addDirectory([{ name: 'sunset.jpg', bytes: image }]);
  });

  afterAll(async () => {
    await store.close();
    await dir.remove();
  });

  it('serves a raw block, as the Trustless Gateway spec says, that hashes to its CID', async () => {
    const response = await handleGatewayRequest(store, {
      cidAndPath: jsonCid.toString(),
      accept: RAW,
    });
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': RAW,
      'x-content-type-options': 'nosniff',
      'cache-control': 'public, max-age=29030400, immutable',
      etag: `"${jsonCid}.raw"`,
      'content-disposition': `attachment; filename="${jsonCid}.bin"`,
      'x-ipfs-path': `/ipfs/${jsonCid}`,
      'content-length': String(response.body.byteLength),
    });
    expect((await cidOfServedBlock(jsonCid, response.body)).equals(jsonCid)).toBe(true);
  });

  it('serves every block of a directory DAG verifiably, by format=raw or a weighted Accept', async () => {
    const fileCid = added.files[0]?.cid ?? added.cid;
    for (const cid of [added.cid, fileCid]) {
      const response = await handleGatewayRequest(store, {
        cidAndPath: cid.toString(),
        accept: 'text/html;q=0.9, application/vnd.ipld.raw',
      });
      expect(response.status).toBe(200);
      expect((await cidOfServedBlock(cid, response.body)).equals(cid)).toBe(true);
    }
    const byFormat = await handleGatewayRequest(store, {
      cidAndPath: `${added.cid}`,
      accept: 'text/html',
      format: 'raw',
    });
    expect(byFormat.headers['content-type']).toBe(RAW);
  });

  it('serves the JSON document itself at <gateway>/ipfs/<ipfsHash>', async () => {
    const response = await handleGatewayRequest(store, {
      cidAndPath: jsonCid.toString(),
      accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers.etag).toBe(`"${jsonCid}"`);
    expect(json.decode(response.body)).toEqual(metadata);
    // The JSON bytes are the block: anyone can check them against ipfsHash.
    expect((await cidOfServedBlock(jsonCid, response.body)).equals(jsonCid)).toBe(true);
  });

  it('serves exactly the file at <dirCid>/<fileName>, typed by its name', async () => {
    const response = await handleGatewayRequest(store, {
      cidAndPath: `${added.cid}/sunset.jpg`,
      accept: undefined,
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['x-ipfs-path']).toBe(`/ipfs/${added.cid}/sunset.jpg`);
    expect(response.headers.etag).toBe(`"${added.files[0]?.cid}"`);
    expect(Buffer.from(response.body).equals(image)).toBe(true);
  });

  it('answers 400 for a malformed CID or path, and for a path on a raw block request', async () => {
    for (const request of [
      { cidAndPath: 'not-a-cid', accept: RAW },
      { cidAndPath: 'not-a-cid/x.jpg', accept: undefined },
      { cidAndPath: `${added.cid}/../etc/passwd`, accept: undefined },
      { cidAndPath: `${added.cid}/sunset.jpg`, accept: RAW },
      { cidAndPath: `${added.cid}`, accept: undefined },
      { cidAndPath: `${jsonCid}`, accept: undefined, format: 'car' },
      { cidAndPath: `${jsonCid}`, accept: 'application/vnd.ipld.car' },
    ]) {
      const response = await handleGatewayRequest(store, request);
      expect(response.status, JSON.stringify(request)).toBe(400);
      expect(problemOf(response).type).toBe('https://hallmark.dev/problems/validation-error');
    }
  });

  it('answers 404 for a CID or path the node does not hold', async () => {
    const unknown = CID.create(1, json.code, await sha256.digest(json.encode({ other: 1 })));
    for (const request of [
      { cidAndPath: unknown.toString(), accept: RAW },
      { cidAndPath: unknown.toString(), accept: undefined },
      { cidAndPath: `${added.cid}/other.jpg`, accept: undefined },
    ]) {
      const response = await handleGatewayRequest(store, request);
      expect(response.status).toBe(404);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(problemOf(response).status).toBe(404);
    }
  });

  it('answers 503 when the Kubo node cannot be reached', async () => {
    const kubo = new KuboIpfs({ apiUrl: await deadUrl() });
    const response = await handleGatewayRequest(kubo, {
      cidAndPath: jsonCid.toString(),
      accept: RAW,
    });
    expect(response.status).toBe(503);
    expect(problemOf(response).detail).not.toContain('127.0.0.1');
  });
});
