// Raw frames from a pipe: stdout arrives in chunks of any size, a frame is a fixed number of
// bytes, so chunks are copied into a frame buffer until it is full.

import type { Readable } from 'node:stream';

/**
 * Yields each complete frame of `frameBytes` bytes read from `stream`, each in a buffer of its
 * own that the caller may keep (the marker hands it on to the encoder's pipe without a copy). A
 * partial last frame (a truncated file) is dropped.
 */
export async function* rawFrames(
  stream: Readable,
  frameBytes: number,
): AsyncGenerator<Uint8Array, void, undefined> {
  // Uninitialised: every byte is written before the frame is yielded.
  let frame = Buffer.allocUnsafe(frameBytes);
  let filled = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let offset = 0;
    while (offset < chunk.length) {
      const take = Math.min(frameBytes - filled, chunk.length - offset);
      frame.set(chunk.subarray(offset, offset + take), filled);
      filled += take;
      offset += take;
      if (filled === frameBytes) {
        yield frame;
        frame = Buffer.allocUnsafe(frameBytes);
        filled = 0;
      }
    }
  }
}

/** Bytes of one yuv420p frame (chroma planes are half size, rounded up). */
export function yuv420pFrameBytes(width: number, height: number): number {
  return width * height + 2 * Math.ceil(width / 2) * Math.ceil(height / 2);
}
