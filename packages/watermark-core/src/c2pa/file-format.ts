// The format of a file on disk, from its first bytes only: a 2 GB video is never read whole to
// learn what it is.
import { open } from 'node:fs/promises';
import { id3TagLength, SNIFF_BYTES, sniffMediaFormat } from '@hallmark/schemas';
import { UnsupportedFormatError } from './errors.ts';
import type { C2paFormat } from './formats.ts';

/** @throws UnsupportedFormatError naming what the file holds, when it cannot carry a manifest */
export async function detectC2paFormatOfFile(path: string): Promise<C2paFormat> {
  const file = await open(path, 'r');
  try {
    const head = await readAt(file, 0, SNIFF_BYTES);
    // A signed FLAC opens with an ID3 tag as long as its manifest: the bytes after it say
    // whether FLAC or MP3 frames follow.
    const tagLength = id3TagLength(head);
    const afterTag =
      tagLength !== undefined && tagLength + 4 > head.length
        ? await readAt(file, tagLength, 4)
        : undefined;
    const found = sniffMediaFormat(head, afterTag);
    if (found.known) return found.type.format;
    throw new UnsupportedFormatError(found.format);
  } finally {
    await file.close();
  }
}

async function readAt(
  file: Awaited<ReturnType<typeof open>>,
  position: number,
  length: number,
): Promise<Uint8Array> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}
