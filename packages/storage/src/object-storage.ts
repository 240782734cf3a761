import type { Readable } from 'node:stream';
import type { ReceivedFile } from './receive-to-file.ts';

/** Facts about stored bytes, computed while they are written. */
export interface StoredObject {
  readonly sizeBytes: number;
  /** Hex SHA-256 of the bytes. */
  readonly sha256: string;
}

export interface DownloadLinkOptions {
  readonly expiresAt: Date;
  readonly contentType: string;
}

/** Bytes received into a temporary file: `commit` makes them the object, `discard` drops them. */
export interface ReceivedUpload extends ReceivedFile {
  /**
   * Up to `length` bytes at `offset`, before commit: what lies past `head` (the audio after a
   * signed FLAC's ID3 tag, which holds its manifest).
   */
  readAt(offset: number, length: number): Promise<Uint8Array>;
  commit(): Promise<void>;
  discard(): Promise<void>;
}

/** How the API answers a valid download link: the bytes themselves, or where to get them. */
export type ObjectDownload =
  | { readonly kind: 'stream'; readonly sizeBytes: number; readonly stream: Readable }
  | { readonly kind: 'redirect'; readonly url: string };

/**
 * Where files live. Keys look like `uploads/<fileId>/<name>`; the last segment is the file name
 * a download offers. Both drivers give out the API's own signed links (`/storage/<key>?expires=
 * &signature=`, see ApiLinks), which a client uses without a bearer token; the API checks them
 * and then calls `receive` or `download`.
 */
export interface ObjectStorage {
  readonly driver: 'local' | 's3';
  /** A link to PUT the bytes to, valid until `expiresAt`. */
  uploadLink(key: string, contentType: string, expiresAt: Date): Promise<string>;
  /** A link to GET the bytes from, valid until `expiresAt`. */
  downloadLink(key: string, options: DownloadLinkOptions): Promise<string>;
  read(key: string): Promise<Uint8Array>;
  /** Writes (or overwrites: writing the same key twice leaves one object) the bytes. */
  write(key: string, bytes: Uint8Array, contentType: string): Promise<StoredObject>;
  /**
   * Streams the object into the new local file `path` (which must not exist), never holding it
   * whole: how a video or a recording is read.
   */
  readToFile(key: string, path: string): Promise<StoredObject>;
  /** Streams the local file at `path` into the object, as `write` would store its bytes. */
  writeFromFile(key: string, path: string, contentType: string): Promise<StoredObject>;
  /**
   * Streams an upload's body to a temporary place, at most `maxBytes` (else UploadTooLargeError,
   * nothing kept), so it can be checked before `commit` stores it under `key`.
   */
  receive(
    key: string,
    body: AsyncIterable<Uint8Array>,
    maxBytes: number,
    contentType: string,
  ): Promise<ReceivedUpload>;
  /** What a valid download link of `key` serves; null when there is no such object. */
  download(key: string, contentType: string): Promise<ObjectDownload | null>;
  /** Size of the object, or null when there is none. */
  size(key: string): Promise<number | null>;
  delete(key: string): Promise<void>;
  /** Removes temporary files left by a process that died mid-write; returns how many. */
  removeStaleTemporaries(olderThan: Date): Promise<number>;
}
