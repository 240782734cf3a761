import type { CID } from 'multiformats/cid';

/**
 * One file to put in a UnixFS directory: `name` is its entry (one path segment); its content is
 * `bytes`, or the local file at `path`, read as a stream (a video is never held whole).
 */
export type DirectoryEntry =
  | { readonly name: string; readonly bytes: Uint8Array }
  | { readonly name: string; readonly path: string };

export interface AddedFile {
  readonly name: string;
  /** The file's own CID (a raw leaf up to 1 MiB, a dag-pb root above). */
  readonly cid: CID;
  /** Bytes in the file. */
  readonly size: number;
}

export interface AddedDirectory {
  /** The directory: `<cid>/<name>` addresses each file. */
  readonly cid: CID;
  /** In the order given. */
  readonly files: readonly AddedFile[];
}

/** What a CID (and path) names: a JSON document, a UnixFS file or a UnixFS directory. */
export type ContentKind = 'json' | 'file' | 'directory';

export interface ResolvedContent {
  /** The CID at the end of the path (the input CID when there is no path). */
  readonly cid: CID;
  readonly kind: ContentKind;
}

/**
 * Where the pin stands at a remote pinning service when `pin` returns: `not_configured` when
 * there is none; `queued`/`pinning` when the service had not finished within the wait (it keeps
 * going on its own).
 */
export type RemotePinState = 'not_configured' | 'queued' | 'pinning' | 'pinned';

export interface PinResult {
  readonly remote: RemotePinState;
}

/**
 * IPFS as Hallmark uses it: JSON documents and directories of files in, blocks and files out.
 * Every CID produced is CIDv1 with sha2-256; JSON uses the `json` codec, files use UnixFS with
 * raw leaves. Failures are `IpfsError`s with a stable `code`.
 *
 * Added content is safe from garbage collection at once (Kubo adds with `pin=true`; the embedded
 * node never collects), so `pin` is only needed to ask a remote pinning service for a copy, or to
 * keep content that was added elsewhere.
 */
export interface IpfsStore {
  readonly driver: 'embedded' | 'kubo';
  /** Stores `JSON.stringify(value)` as one block; the CID is `CIDv1(json, sha2-256(bytes))`. */
  addJson(value: unknown): Promise<CID>;
  /** Stores the files in one UnixFS directory (CIDv1, raw leaves, 1 MiB chunks). */
  addDirectory(entries: readonly DirectoryEntry[]): Promise<AddedDirectory>;
  /** The raw bytes of one block, checked against the CID (for the trustless gateway). */
  getBlock(cid: CID): Promise<Uint8Array>;
  /** What `cid/path` names; throws `ipfs_not_found` when it names nothing. */
  resolvePath(cid: CID, path?: string): Promise<ResolvedContent>;
  /** The bytes of the file or JSON document at `cid/path`. */
  cat(cid: CID, path?: string): Promise<Uint8Array>;
  /** The parsed value of a `json`-codec document (unvalidated: parse it with its schema). */
  getJson(cid: CID): Promise<unknown>;
  /**
   * Pins on the node (idempotent) and, when a pinning service is configured, asks it for a copy;
   * `name` labels the pin there.
   */
  pin(cid: CID, options?: { name?: string }): Promise<PinResult>;
  /**
   * Undoes `pin` (idempotent): the node drops the pin, and the pinning service its copy. The
   * embedded node deletes the root block at once unless another pin still holds it; Kubo frees
   * it at its next garbage collection.
   */
  unpin(cid: CID): Promise<void>;
  close(): Promise<void>;
}
