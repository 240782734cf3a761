import { join } from 'node:path';
import type { UnixFS } from '@helia/unixfs';
import type { Helia } from 'helia';
import type { CID } from 'multiformats/cid';
import {
  assertBlockMatches,
  assertJsonCid,
  DAG_PB_CODE,
  encodeJson,
  jsonCidOf,
  jsonCodec,
  RAW_CODE,
} from './cid.ts';
import { assertDirectoryEntries, normalizePath } from './content-path.ts';
import { entryContent, entrySize } from './entry-content.ts';
import { IpfsError, isIpfsError } from './errors.ts';
import type {
  AddedDirectory,
  DirectoryEntry,
  IpfsStore,
  PinResult,
  ResolvedContent,
} from './ipfs-store.ts';
import { UNIXFS_IMPORT_OPTIONS } from './unixfs-import-options.ts';

/**
 * Error names from helia, its blockstores and the UnixFS exporter that mean "not here". Every
 * read passes `offline: true`, so a missing block fails at once (BlockNotFoundWhileOfflineError)
 * instead of looking for a network; pinning has no offline switch and reports a missing child
 * block as "no block brokers configured" (InvalidConfigurationError), which on a node without
 * networking means the same thing.
 */
const NOT_FOUND_ERRORS = new Set([
  'BlockNotFoundWhileOfflineError',
  'NotFoundError',
  'DoesNotExistError',
  'InvalidConfigurationError',
]);

/**
 * The default driver: a helia node inside the process, storing blocks as files under
 * `<directory>/blocks` and its small bookkeeping (pins, version) under `<directory>/datastore`.
 *
 * It never touches the network: `createHeliaLight` brings no libp2p, no bitswap, no routers and
 * no HTTP gateways, and every read is `offline`. Content reaches other machines through the
 * API's trustless gateway instead.
 *
 * Several processes (the worker writing, the API reading) may open the same directory: each
 * block is its own content-addressed file, written to a temporary name and renamed into place,
 * so a reader sees a block whole or not at all, and sees it as soon as the rename is done (there
 * is no index or cache to go stale). Garbage collection, which would need one lock across
 * processes, is never run.
 */
export class EmbeddedIpfs implements IpfsStore {
  readonly driver = 'embedded';
  readonly #helia: Helia;
  readonly #fs: UnixFS;

  private constructor(helia: Helia, fs: UnixFS) {
    this.#helia = helia;
    this.#fs = fs;
  }

  static async open(directory: string): Promise<EmbeddedIpfs> {
    // Loaded here rather than at the top: helia's entry module pulls in libp2p, bitswap and HTTP
    // routing (about a second of start-up) although createHeliaLight uses none of them, and a
    // process configured for Kubo should not pay for it.
    const [{ createHeliaLight }, { unixfs }, { FsBlockstore }, { FsDatastore }] = await Promise.all(
      [import('helia'), import('@helia/unixfs'), import('blockstore-fs'), import('datastore-fs')],
    );
    const helia = createHeliaLight({
      blockstore: new FsBlockstore(join(directory, 'blocks')),
      datastore: new FsDatastore(join(directory, 'datastore')),
      // createHeliaLight decodes dag-pb and raw only; pinning decodes every block it walks.
      codecs: [jsonCodec],
    });
    await helia.start();
    return new EmbeddedIpfs(helia, unixfs(helia));
  }

  async addJson(value: unknown): Promise<CID> {
    const bytes = encodeJson(value);
    const cid = await jsonCidOf(bytes);
    await this.#attempt(`store ${cid}`, () => this.#helia.blockstore.put(cid, bytes));
    return cid;
  }

  async addDirectory(entries: readonly DirectoryEntry[]): Promise<AddedDirectory> {
    assertDirectoryEntries(entries);
    const results = await this.#attempt('store a directory', async () => {
      const imported = [];
      const candidates = entries.map((entry) => ({
        path: entry.name,
        content: entryContent(entry),
      }));
      for await (const result of this.#fs.addAll(candidates, {
        ...UNIXFS_IMPORT_OPTIONS,
        wrapWithDirectory: true,
      })) {
        imported.push(result);
      }
      return imported;
    });
    // The importer yields each file, then the wrapping directory (path '') last.
    const directory = results.at(-1);
    if (directory === undefined || directory.path !== '') {
      throw new IpfsError('ipfs_failed', 'the UnixFS importer produced no directory');
    }
    const files = [];
    for (const entry of entries) {
      const file = results.find((result) => result.path === entry.name);
      if (file === undefined) throw new IpfsError('ipfs_failed', `no CID for ${entry.name}`);
      files.push({ name: entry.name, cid: file.cid, size: await entrySize(entry) });
    }
    return { cid: directory.cid, files };
  }

  async getBlock(cid: CID): Promise<Uint8Array> {
    const bytes = await this.#attempt(`read ${cid}`, () =>
      collect(this.#helia.blockstore.get(cid, { offline: true })),
    );
    await assertBlockMatches(cid, bytes);
    return bytes;
  }

  async resolvePath(cid: CID, path?: string): Promise<ResolvedContent> {
    const entryPath = normalizePath(path);
    if (cid.code === jsonCodec.code || cid.code === RAW_CODE) {
      // A JSON document or a raw leaf has no entries under it, only itself.
      const exists =
        entryPath === '' &&
        (await this.#attempt(`read ${cid}`, () => this.#helia.blockstore.has(cid)));
      if (!exists) throw new IpfsError('ipfs_not_found', `nothing at ${cid}/${entryPath}`);
      return { cid, kind: cid.code === RAW_CODE ? 'file' : 'json' };
    }
    if (cid.code !== DAG_PB_CODE) {
      throw new IpfsError(
        'invalid_cid',
        `codec 0x${cid.code.toString(16)} of ${cid} is not read here`,
      );
    }
    const stats = await this.#attempt(`resolve ${cid}/${entryPath}`, () =>
      this.#fs.stat(cid, { path: entryPath === '' ? undefined : entryPath, offline: true }),
    );
    return { cid: stats.cid, kind: stats.type === 'directory' ? 'directory' : 'file' };
  }

  async cat(cid: CID, path?: string): Promise<Uint8Array> {
    const resolved = await this.resolvePath(cid, path);
    if (resolved.kind === 'json') return this.getBlock(resolved.cid);
    if (resolved.kind === 'directory') {
      throw new IpfsError('invalid_path', `${cid}/${normalizePath(path)} is a directory`);
    }
    return this.#attempt(`read ${resolved.cid}`, () =>
      collect(this.#fs.cat(resolved.cid, { offline: true })),
    );
  }

  async getJson(cid: CID): Promise<unknown> {
    assertJsonCid(cid);
    return jsonCodec.decode(await this.getBlock(cid));
  }

  async pin(cid: CID, _options?: { name?: string }): Promise<PinResult> {
    await this.#attempt(`pin ${cid}`, async () => {
      // helia's DAG walker lets a missing block escape as an unhandled rejection besides failing
      // the pin, so a missing root is refused before walking. Children are present by
      // construction: this node wrote every DAG it holds in one go.
      if (!(await this.#helia.blockstore.has(cid))) {
        throw new IpfsError('ipfs_not_found', `pin ${cid}: not in the node`);
      }
      try {
        for await (const _ of this.#helia.pins.add(cid)) {
          // Each yielded CID is one block of the DAG now counted as pinned.
        }
      } catch (error) {
        // Pinning twice is the same as pinning once.
        if (!(error instanceof Error && error.name === 'AlreadyPinnedError')) throw error;
      }
    });
    return { remote: 'not_configured' };
  }

  async unpin(cid: CID): Promise<void> {
    await this.#attempt(`unpin ${cid}`, async () => {
      try {
        for await (const _ of this.#helia.pins.rm(cid)) {
          // Each yielded CID is one block of the DAG no longer pinned by this pin.
        }
      } catch (error) {
        if (!(error instanceof Error && error.name === 'NotFoundError')) throw error;
      }
      // Only the root: what Hallmark unpins is a single-block JSON record. A block another pin
      // walks (the same document in a DAG kept elsewhere) stays.
      if ((await this.#helia.blockstore.has(cid)) && !(await this.#helia.pins.isPinned(cid))) {
        await this.#helia.blockstore.delete(cid);
      }
    });
  }

  async close(): Promise<void> {
    await this.#helia.stop();
  }

  async #attempt<T>(what: string, operation: () => T | Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (isIpfsError(error)) throw error;
      if (error instanceof Error && NOT_FOUND_ERRORS.has(error.name)) {
        throw new IpfsError('ipfs_not_found', `${what}: not in the node`, { cause: error });
      }
      throw new IpfsError('ipfs_failed', `${what}: ${String(error)}`, { cause: error });
    }
  }
}

async function collect(
  chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return parts.length === 1 && parts[0] !== undefined ? parts[0] : Buffer.concat(parts);
}
