// A directory entry's content is bytes in memory or a local file: a video is added from its file
// as a stream (or a file-backed Blob for Kubo's multipart form), never read whole.
import { createReadStream, openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { DirectoryEntry } from './ipfs-store.ts';

/** What UnixFS's importer reads: the bytes, or the file as a stream of chunks. */
export function entryContent(entry: DirectoryEntry): Uint8Array | AsyncIterable<Uint8Array> {
  return 'bytes' in entry ? entry.bytes : createReadStream(entry.path);
}

/** The entry as a Blob for a multipart form; a file's Blob reads from disk as it is sent. */
export async function entryBlob(entry: DirectoryEntry): Promise<Blob> {
  return 'path' in entry ? openAsBlob(entry.path) : bytesBlob(entry.bytes);
}

/** Bytes as a Blob, without copying them when they own their buffer. */
export function bytesBlob(bytes: Uint8Array): Blob {
  return new Blob([
    bytes.buffer instanceof ArrayBuffer
      ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      : bytes.slice(),
  ]);
}

/** Bytes in the entry. */
export async function entrySize(entry: DirectoryEntry): Promise<number> {
  return 'bytes' in entry ? entry.bytes.byteLength : (await stat(entry.path)).size;
}
