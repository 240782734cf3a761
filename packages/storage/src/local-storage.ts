import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import {
  type FileHandle,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { LinkMethod, LinkSigner } from './link-signer.ts';
import { assertObjectKey } from './object-key.ts';
import type { DownloadLinkOptions, ObjectStorage, StoredObject } from './object-storage.ts';
import { asStorageFull } from './storage-full.ts';

/** Thrown by `receive` when the body is longer than allowed; nothing is kept. */
export class UploadTooLargeError extends Error {
  readonly code = 'upload_too_large';
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    super(`upload exceeds ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
    this.name = 'UploadTooLargeError';
  }
}

/** Bytes received into a temporary file: `commit` makes them the object, `discard` drops them. */
export interface ReceivedUpload extends StoredObject {
  /** The first bytes, for checking the real type by its magic bytes. */
  readonly head: Uint8Array;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

const HEAD_BYTES = 64;
/** The names `write` and `receive` give their temporary files. */
const TEMPORARY = /\.[0-9a-f]{12}\.(tmp|upload)$/;

/**
 * Files on local disk under `root`, served through links that the API itself answers under
 * `/storage/<key>`. Writes go to a temporary file that is renamed into place, so a reader never
 * sees half an object and writing a key twice leaves one object.
 */
export class LocalStorage implements ObjectStorage {
  readonly driver = 'local';
  readonly #root: string;
  readonly #baseUrl: string;
  readonly #signer: LinkSigner;

  constructor(options: { root: string; baseUrl: string; signer: LinkSigner }) {
    this.#root = options.root;
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#signer = options.signer;
  }

  async uploadLink(key: string, _contentType: string, expiresAt: Date): Promise<string> {
    return this.#link('PUT', key, expiresAt);
  }

  async downloadLink(key: string, options: DownloadLinkOptions): Promise<string> {
    return this.#link('GET', key, options.expiresAt);
  }

  async read(key: string): Promise<Uint8Array> {
    return readFile(this.#path(key));
  }

  async write(key: string, bytes: Uint8Array): Promise<StoredObject> {
    const target = this.#path(key);
    await mkdir(dirname(target), { recursive: true });
    const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, bytes);
      await rename(temporary, target);
    } catch (error) {
      // A full disk must not also keep the half-written file.
      await rm(temporary, { force: true });
      throw asStorageFull(error);
    }
    return { sizeBytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  }

  /** Streams the object (the API serves downloads of the local driver with it). */
  openReadStream(key: string): ReadStream {
    return createReadStream(this.#path(key));
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await stat(this.#path(key))).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.#path(key), { force: true });
  }

  /**
   * Streams a request body to a temporary file, hashing as it goes and stopping as soon as the
   * body passes `maxBytes`, so an oversized upload never fills the disk.
   */
  async receive(
    key: string,
    body: AsyncIterable<Uint8Array>,
    maxBytes: number,
  ): Promise<ReceivedUpload> {
    const target = this.#path(key);
    await mkdir(dirname(target), { recursive: true });
    const temporary = `${target}.${randomBytes(6).toString('hex')}.upload`;
    // A file handle rather than a write stream: the same writes with about half the CPU per
    // upload (measured on a 110 KB body, the whole receive: 521 us against 952 us).
    const file = await open(temporary, 'wx');
    const hash = createHash('sha256');
    const head: Buffer[] = [];
    let headLength = 0;
    let sizeBytes = 0;
    let closed = false;
    try {
      for await (const chunk of body) {
        sizeBytes += chunk.length;
        if (sizeBytes > maxBytes) throw new UploadTooLargeError(maxBytes);
        if (headLength < HEAD_BYTES) {
          head.push(Buffer.from(chunk.subarray(0, HEAD_BYTES - headLength)));
          headLength += Math.min(chunk.length, HEAD_BYTES - headLength);
        }
        hash.update(chunk);
        await writeAll(file, chunk);
      }
      closed = true;
      await file.close();
    } catch (error) {
      // Closed before it is removed; the error that stopped the upload is the one to report.
      if (!closed) await file.close().catch(() => undefined);
      await rm(temporary, { force: true });
      throw asStorageFull(error);
    }
    return {
      sizeBytes,
      sha256: hash.digest('hex'),
      head: Buffer.concat(head),
      commit: () => rename(temporary, target),
      discard: () => rm(temporary, { force: true }),
    };
  }

  /**
   * Removes temporary files (`.tmp` of a write, `.upload` of an upload) last changed before
   * `olderThan`: a process that died mid-write leaves them behind. Returns how many went.
   */
  async removeStaleTemporaries(olderThan: Date): Promise<number> {
    const entries = await readdir(this.#root, { recursive: true, withFileTypes: true }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      },
    );
    let removed = 0;
    for (const entry of entries) {
      if (!entry.isFile() || !TEMPORARY.test(entry.name)) continue;
      const path = join(entry.parentPath, entry.name);
      const changed = await stat(path).then(
        (stats) => stats.mtime,
        () => null,
      );
      if (changed === null || changed >= olderThan) continue;
      await rm(path, { force: true });
      removed += 1;
    }
    return removed;
  }

  #link(method: LinkMethod, key: string, expiresAt: Date): string {
    assertObjectKey(key);
    const expires = Math.floor(expiresAt.getTime() / 1000);
    const signature = this.#signer.sign({ method, key, expires });
    return `${this.#baseUrl}/storage/${key}?expires=${expires}&signature=${signature}`;
  }

  #path(key: string): string {
    return join(this.#root, assertObjectKey(key));
  }
}

/** Writes all of `chunk` (a write may take only part of it). */
async function writeAll(file: FileHandle, chunk: Uint8Array): Promise<void> {
  for (let offset = 0; offset < chunk.length; ) {
    const { bytesWritten } = await file.write(chunk, offset);
    offset += bytesWritten;
  }
}
