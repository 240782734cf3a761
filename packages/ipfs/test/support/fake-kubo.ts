import { unixfs } from '@helia/unixfs';
import { createHeliaLight } from 'helia';
import { CID } from 'multiformats/cid';
import * as json from 'multiformats/codecs/json';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { serve } from './http-server.ts';

export interface KuboCall {
  readonly command: string;
  readonly params: URLSearchParams;
}

export interface FakeKubo {
  readonly apiUrl: string;
  /** Every RPC call received, in order. */
  readonly calls: KuboCall[];
  /** CIDs pinned (recursively) through `pin/add` or `pin=true`. */
  readonly pins: Set<string>;
  /** The Authorization header of the last call. */
  lastAuthorization(): string | null;
  close(): Promise<void>;
}

const CODECS: Record<string, number> = { json: json.code, raw: raw.code };

/**
 * A stand-in for the handful of Kubo RPC commands the driver uses (Kubo itself cannot run here).
 * It is honest where it matters: blocks live in a real (in-memory) helia blockstore, `block/put`
 * derives CIDs with multiformats from the bytes it received, `add` builds real UnixFS with the
 * parameters it was sent, and errors have Kubo's shape (`500 { Message, Code, Type }`) and words.
 */
export async function startFakeKubo(): Promise<FakeKubo> {
  const helia = createHeliaLight();
  await helia.start();
  const fs = unixfs(helia);
  const calls: KuboCall[] = [];
  const pins = new Set<string>();
  let authorization: string | null = null;

  const handlers: Record<string, (params: URLSearchParams, request: Request) => Promise<Response>> =
    {
      'block/put': async (params, request) => {
        const bytes = await firstFileBytes(request);
        const codec = CODECS[params.get('cid-codec') ?? 'raw'];
        if (codec === undefined || params.get('mhtype') !== 'sha2-256') {
          return kuboError('unsupported codec or hash in this fake');
        }
        const cid = CID.create(1, codec, await sha256.digest(bytes));
        await helia.blockstore.put(cid, bytes);
        if (params.get('pin') === 'true') pins.add(cid.toString());
        return Response.json({ Key: cid.toString(), Size: bytes.length });
      },
      add: async (params, request) => {
        // Helia's importer chunks at 1 MiB, so that is the only chunker this fake can honour.
        if (params.get('chunker') !== 'size-1048576') return kuboError('unsupported chunker');
        const form = await request.formData();
        const files = form.getAll('file').filter((entry) => entry instanceof File);
        const candidates = await Promise.all(
          files.map(async (file) => ({
            path: decodeURIComponent(file.name),
            content: new Uint8Array(await file.arrayBuffer()),
          })),
        );
        const lines: string[] = [];
        for await (const entry of fs.addAll(candidates, {
          cidVersion: params.get('cid-version') === '1' ? 1 : 0,
          rawLeaves: params.get('raw-leaves') === 'true',
          wrapWithDirectory: params.get('wrap-with-directory') === 'true',
        })) {
          lines.push(
            JSON.stringify({ Name: entry.path, Hash: entry.cid.toString(), Size: `${entry.size}` }),
          );
          if (entry.path === '' && params.get('pin') !== 'false') pins.add(entry.cid.toString());
        }
        return new Response(`${lines.join('\n')}\n`, {
          headers: { 'content-type': 'application/json' },
        });
      },
      'block/get': async (params) => {
        const cid = CID.parse(params.get('arg') ?? '');
        if (!(await helia.blockstore.has(cid))) return notFound(cid);
        return new Response(await collect(helia.blockstore.get(cid)));
      },
      'block/stat': async (params) => {
        const cid = CID.parse(params.get('arg') ?? '');
        if (!(await helia.blockstore.has(cid))) return notFound(cid);
        const bytes = await collect(helia.blockstore.get(cid));
        return Response.json({ Key: cid.toString(), Size: bytes.length });
      },
      'files/stat': async (params) => {
        const { cid, path } = splitIpfsPath(params.get('arg') ?? '');
        if (!(await helia.blockstore.has(cid))) return notFound(cid);
        if (cid.code === json.code) return kuboError('not unixfs node (proto or raw)');
        try {
          const stats = await fs.stat(cid, { path, offline: true });
          return Response.json({
            Hash: stats.cid.toString(),
            Size: Number(stats.size),
            CumulativeSize: Number(stats.size),
            Blocks: 0,
            Type: stats.type === 'directory' ? 'directory' : 'file',
          });
        } catch {
          return kuboError(`no link named "${path}" under ${cid}`);
        }
      },
      cat: async (params) => {
        const { cid, path } = splitIpfsPath(params.get('arg') ?? '');
        if (!(await helia.blockstore.has(cid))) return notFound(cid);
        return new Response(await collect(fs.cat(cid, { path, offline: true })));
      },
      'pin/add': async (params) => {
        const cid = CID.parse(params.get('arg') ?? '');
        if (!(await helia.blockstore.has(cid))) return notFound(cid);
        pins.add(cid.toString());
        return Response.json({ Pins: [cid.toString()] });
      },
      'pin/rm': async (params) => {
        const cid = CID.parse(params.get('arg') ?? '');
        // Kubo's words for a CID that has no pin.
        if (!pins.delete(cid.toString())) return kuboError('not pinned or pinned indirectly');
        return Response.json({ Pins: [cid.toString()] });
      },
    };

  const server = await serve(async (request) => {
    const url = new URL(request.url);
    const command = url.pathname.replace(/^\/api\/v0\//, '');
    calls.push({ command, params: url.searchParams });
    authorization = request.headers.get('authorization');
    const handler = handlers[command];
    if (request.method !== 'POST') return new Response('405 - Method Not Allowed', { status: 405 });
    if (handler === undefined) return new Response('404 page not found', { status: 404 });
    return handler(url.searchParams, request);
  });

  return {
    apiUrl: server.url,
    calls,
    pins,
    lastAuthorization: () => authorization,
    close: async () => {
      await server.close();
      await helia.stop();
    },
  };
}

function kuboError(message: string): Response {
  return Response.json({ Message: message, Code: 0, Type: 'error' }, { status: 500 });
}

function notFound(cid: CID): Response {
  return kuboError(`block was not found locally (offline): ipld: could not find ${cid}`);
}

function splitIpfsPath(arg: string): { cid: CID; path: string | undefined } {
  const [cid = '', ...rest] = arg.replace(/^\/ipfs\//, '').split('/');
  return { cid: CID.parse(cid), path: rest.length === 0 ? undefined : rest.join('/') };
}

async function firstFileBytes(request: Request): Promise<Uint8Array> {
  const file = (await request.formData()).get('file');
  if (!(file instanceof File)) throw new Error('no file part');
  return new Uint8Array(await file.arrayBuffer());
}

async function collect(
  chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
): Promise<Uint8Array<ArrayBuffer>> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return new Uint8Array(Buffer.concat(parts));
}
