// Objects too large to hold in memory (a video, a long recording) move between the store and a
// local file as streams; these helpers are what both drivers share.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { type FileHandle, open, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { StoredObject } from './object-storage.ts';
import { asStorageFull } from './storage-full.ts';

/** Size and SHA-256 of a local file, read as a stream. */
export async function describeFile(path: string): Promise<StoredObject> {
  const hash = createHash('sha256');
  let sizeBytes = 0;
  for await (const chunk of createReadStream(path)) {
    const bytes = chunk as Buffer;
    sizeBytes += bytes.length;
    hash.update(bytes);
  }
  return { sizeBytes, sha256: hash.digest('hex') };
}

/**
 * Streams `source` into the new file `target`, hashing on the way; on any failure the partial
 * file is removed and a full disk is reported as StorageFullError.
 */
export async function streamToFile(source: Readable, target: string): Promise<StoredObject> {
  let file: FileHandle;
  try {
    file = await open(target, 'wx');
  } catch (error) {
    // Nothing was created, so nothing is removed: the file already there stays as it was.
    source.destroy();
    throw asStorageFull(error);
  }
  const hash = createHash('sha256');
  let sizeBytes = 0;
  try {
    await pipeline(
      source,
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          sizeBytes += chunk.length;
          hash.update(chunk);
          yield chunk;
        }
      },
      file.createWriteStream(),
    );
  } catch (error) {
    await rm(target, { force: true });
    throw asStorageFull(error);
  }
  return { sizeBytes, sha256: hash.digest('hex') };
}

/** Up to `length` bytes of the file at `offset` (fewer at its end). */
export async function readRange(path: string, offset: number, length: number): Promise<Uint8Array> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await file.read(buffer, 0, length, offset);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}
