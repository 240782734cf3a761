import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ApiLinks } from './api-links.ts';
import { readRange, streamToFile } from './file-transfer.ts';
import type { LinkSigner } from './link-signer.ts';
import { assertObjectKey } from './object-key.ts';
import type {
  DownloadLinkOptions,
  ObjectDownload,
  ObjectStorage,
  ReceivedUpload,
  StoredObject,
} from './object-storage.ts';
import { receiveToFile, removeStaleTemporaries, temporaryNameFor } from './receive-to-file.ts';
import { asStorageFull } from './storage-full.ts';

/**
 * Files on local disk under `root`, served by the API itself through its signed links. Writes go
 * to a temporary file that is renamed into place, so a reader never sees half an object and
 * writing a key twice leaves one object.
 */
export class LocalStorage implements ObjectStorage {
  readonly driver = 'local';
  readonly #root: string;
  readonly #links: ApiLinks;

  constructor(options: { root: string; baseUrl: string; signer: LinkSigner }) {
    this.#root = options.root;
    this.#links = new ApiLinks(options);
  }

  async uploadLink(key: string, _contentType: string, expiresAt: Date): Promise<string> {
    return this.#links.upload(key, expiresAt);
  }

  async downloadLink(key: string, options: DownloadLinkOptions): Promise<string> {
    return this.#links.download(key, options.expiresAt);
  }

  async read(key: string): Promise<Uint8Array> {
    return readFile(this.#path(key));
  }

  async write(key: string, bytes: Uint8Array): Promise<StoredObject> {
    const target = this.#path(key);
    await mkdir(dirname(target), { recursive: true });
    const temporary = temporaryNameFor(target, 'tmp');
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

  async readToFile(key: string, path: string): Promise<StoredObject> {
    return streamToFile(createReadStream(this.#path(key)), path);
  }

  async writeFromFile(key: string, path: string, _contentType: string): Promise<StoredObject> {
    const target = this.#path(key);
    await mkdir(dirname(target), { recursive: true });
    const temporary = temporaryNameFor(target, 'tmp');
    try {
      const stored = await streamToFile(createReadStream(path), temporary);
      await rename(temporary, target);
      return stored;
    } catch (error) {
      await rm(temporary, { force: true });
      throw asStorageFull(error);
    }
  }

  async receive(
    key: string,
    body: AsyncIterable<Uint8Array>,
    maxBytes: number,
  ): Promise<ReceivedUpload> {
    const target = this.#path(key);
    await mkdir(dirname(target), { recursive: true });
    const temporary = temporaryNameFor(target, 'upload');
    const received = await receiveToFile(temporary, body, maxBytes);
    return {
      ...received,
      readAt: (offset, length) => readRange(temporary, offset, length),
      commit: () => rename(temporary, target),
      discard: () => rm(temporary, { force: true }),
    };
  }

  /** The API streams the file itself. */
  async download(key: string): Promise<ObjectDownload | null> {
    const sizeBytes = await this.size(key);
    if (sizeBytes === null) return null;
    return { kind: 'stream', sizeBytes, stream: createReadStream(this.#path(key)) };
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

  removeStaleTemporaries(olderThan: Date): Promise<number> {
    return removeStaleTemporaries(this.#root, olderThan);
  }

  #path(key: string): string {
    return join(this.#root, assertObjectKey(key));
  }
}
