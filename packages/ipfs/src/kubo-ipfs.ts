import type { CID } from 'multiformats/cid';
import {
  assertBlockMatches,
  assertJsonCid,
  DAG_PB_CODE,
  encodeJson,
  jsonCidOf,
  jsonCodec,
  parseCid,
  RAW_CODE,
} from './cid.ts';
import { assertDirectoryEntries, normalizePath } from './content-path.ts';
import { bytesBlob, entryBlob, entrySize } from './entry-content.ts';
import { IpfsError } from './errors.ts';
import { stringField } from './http-json.ts';
import type {
  AddedDirectory,
  DirectoryEntry,
  IpfsStore,
  PinResult,
  ResolvedContent,
} from './ipfs-store.ts';
import { KuboRpc, type KuboRpcOptions } from './kubo-rpc.ts';
import type { PinningService } from './pinning-service.ts';
import { KUBO_ADD_PARAMS } from './unixfs-import-options.ts';

export interface KuboIpfsOptions extends KuboRpcOptions {
  /** When set, `pin` also asks this service for a copy. */
  readonly pinning?: PinningService | undefined;
}

/**
 * Reads never go to the network: Hallmark only reads what it stored, and a Kubo node asked for a
 * block it lacks would otherwise search the network until the call times out.
 */
const OFFLINE = { offline: 'true' } as const;

/**
 * The production driver: a Kubo node through its RPC API (plain `fetch`, no client library). JSON
 * goes in with `block/put` after being encoded here, so the CID is computed locally and Kubo's
 * answer is checked against it; files go in with `add`, wrapped in a directory, in the same UnixFS
 * profile as the embedded driver.
 */
export class KuboIpfs implements IpfsStore {
  readonly driver = 'kubo';
  readonly #rpc: KuboRpc;
  readonly #pinning: PinningService | undefined;

  constructor(options: KuboIpfsOptions) {
    this.#rpc = new KuboRpc(options);
    this.#pinning = options.pinning;
  }

  async addJson(value: unknown): Promise<CID> {
    const bytes = encodeJson(value);
    const cid = await jsonCidOf(bytes);
    const form = new FormData();
    form.append('file', bytesBlob(bytes));
    const answer = await this.#rpc.json(
      'block/put',
      { 'cid-codec': jsonCodec.name, mhtype: 'sha2-256', pin: 'true' },
      form,
    );
    const stored = parseCid(stringField(answer, 'Key', 'Kubo block/put'));
    if (!stored.equals(cid)) {
      throw new IpfsError('ipfs_failed', `Kubo stored the document as ${stored}, not ${cid}`);
    }
    return cid;
  }

  async addDirectory(entries: readonly DirectoryEntry[]): Promise<AddedDirectory> {
    assertDirectoryEntries(entries);
    const form = new FormData();
    for (const entry of entries) {
      // Kubo reads multipart file names URL-encoded (as kubo-rpc-client sends them).
      form.append('file', await entryBlob(entry), encodeURIComponent(entry.name));
    }
    const lines = await this.#rpc.jsonLines(
      'add',
      { ...KUBO_ADD_PARAMS, 'wrap-with-directory': 'true', pin: 'true' },
      form,
    );
    const added = lines.map((line) => ({
      name: stringField(line, 'Name', 'Kubo add'),
      cid: parseCid(stringField(line, 'Hash', 'Kubo add')),
    }));
    // The wrapping directory is the entry without a name, reported last.
    const directory = added.find((line) => line.name === '');
    if (directory === undefined)
      throw new IpfsError('ipfs_failed', 'Kubo add reported no directory');
    const files = [];
    for (const entry of entries) {
      const file = added.find((line) => line.name === entry.name);
      if (file === undefined) {
        throw new IpfsError('ipfs_failed', `Kubo add did not report ${entry.name}`);
      }
      files.push({ name: entry.name, cid: file.cid, size: await entrySize(entry) });
    }
    return { cid: directory.cid, files };
  }

  async getBlock(cid: CID): Promise<Uint8Array> {
    const bytes = await this.#rpc.bytes('block/get', { arg: cid.toString(), ...OFFLINE });
    await assertBlockMatches(cid, bytes);
    return bytes;
  }

  async resolvePath(cid: CID, path?: string): Promise<ResolvedContent> {
    const entryPath = normalizePath(path);
    if (cid.code === jsonCodec.code || cid.code === RAW_CODE) {
      // A JSON document or a raw leaf has no entries under it, only itself.
      if (entryPath !== '') throw new IpfsError('ipfs_not_found', `nothing at ${cid}/${entryPath}`);
      await this.#rpc.json('block/stat', { arg: cid.toString(), ...OFFLINE });
      return { cid, kind: cid.code === RAW_CODE ? 'file' : 'json' };
    }
    if (cid.code !== DAG_PB_CODE) {
      throw new IpfsError(
        'invalid_cid',
        `codec 0x${cid.code.toString(16)} of ${cid} is not read here`,
      );
    }
    const arg = entryPath === '' ? `/ipfs/${cid}` : `/ipfs/${cid}/${entryPath}`;
    const stats = await this.#rpc.json('files/stat', { arg, ...OFFLINE });
    const type = stringField(stats, 'Type', 'Kubo files/stat');
    return {
      cid: parseCid(stringField(stats, 'Hash', 'Kubo files/stat')),
      kind: type === 'directory' ? 'directory' : 'file',
    };
  }

  async cat(cid: CID, path?: string): Promise<Uint8Array> {
    const resolved = await this.resolvePath(cid, path);
    if (resolved.kind === 'json') return this.getBlock(resolved.cid);
    if (resolved.kind === 'directory') {
      throw new IpfsError('invalid_path', `${cid}/${normalizePath(path)} is a directory`);
    }
    return this.#rpc.bytes('cat', { arg: `/ipfs/${resolved.cid}`, ...OFFLINE });
  }

  async getJson(cid: CID): Promise<unknown> {
    assertJsonCid(cid);
    return jsonCodec.decode(await this.getBlock(cid));
  }

  async pin(cid: CID, options: { name?: string } = {}): Promise<PinResult> {
    // Offline: pinning is for content this node holds; a missing CID fails fast as not found.
    await this.#rpc.json('pin/add', { arg: cid.toString(), recursive: 'true', ...OFFLINE });
    if (this.#pinning === undefined) return { remote: 'not_configured' };
    return { remote: await this.#pinning.pin(cid, options) };
  }

  async unpin(cid: CID): Promise<void> {
    try {
      await this.#rpc.json('pin/rm', { arg: cid.toString(), recursive: 'true', ...OFFLINE });
    } catch (error) {
      // Not pinned (any more) is what was asked.
      if (!(error instanceof Error && /not pinned/i.test(error.message))) throw error;
    }
    await this.#pinning?.unpin(cid);
  }

  async close(): Promise<void> {
    // Nothing is held open: every call is its own HTTP request.
  }
}
