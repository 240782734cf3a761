// Raw frames from a pipe: stdout arrives in chunks of any size, a frame is a fixed number of
// bytes, so chunks are copied into one frame buffer at a time.

import type { Readable } from 'node:stream';

/**
 * Yields each complete frame of `frameBytes` bytes read from `stream`. The buffer is reused: a
 * caller must be done with a frame before asking for the next one. A partial last frame (a
 * truncated file) is dropped.
 */
export async function* rawFrames(
  stream: Readable,
  frameBytes: number,
): AsyncGenerator<Uint8Array, void, undefined> {
  const frame = new Uint8Array(frameBytes);
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
        filled = 0;
      }
    }
  }
}

/** Bytes of one yuv420p frame (chroma planes are half size, rounded up). */
export function yuv420pFrameBytes(width: number, height: number): number {
  return width * height + 2 * Math.ceil(width / 2) * Math.ceil(height / 2);
}
