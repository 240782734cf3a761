import type { Readable } from 'node:stream';
import { problemTypes, SNIFF_BYTES, sniffImageFormat, sniffMediaFormat } from '@hallmark/schemas';
import { ProblemException } from '../problem/problem.exception.ts';
import { bodyChunks } from '../problem/unread-bodies.ts';

/**
 * Reads an image sent as the request body, checked before anything decodes it: at most
 * `maxBytes` (413; nothing past the limit is kept), and an image by its magic bytes (415),
 * whatever the Content-Type claims.
 */
export async function readImageBody(body: unknown, maxBytes: number): Promise<Uint8Array> {
  const bytes = await readBody(body, maxBytes);
  const sniffed = sniffImageFormat(bytes.subarray(0, SNIFF_BYTES));
  if (!sniffed.image) {
    throw new ProblemException(
      problemTypes.unsupportedMediaType,
      `The body is not an image (${sniffed.format === 'unknown' ? 'no known image signature' : `it looks like ${sniffed.format}`}).`,
    );
  }
  return bytes;
}

/**
 * Reads a file of any accepted type (an image, a video, a recording) sent as the request body,
 * checked as readImageBody checks an image: what verification takes.
 */
export async function readFileBody(body: unknown, maxBytes: number): Promise<Uint8Array> {
  const bytes = await readBody(body, maxBytes);
  const sniffed = sniffMediaFormat(bytes);
  if (!sniffed.known) {
    throw new ProblemException(
      problemTypes.unsupportedMediaType,
      `The body is not a file Hallmark verifies (${sniffed.format === 'unknown' ? 'no known signature' : `it looks like ${sniffed.format}`}).`,
    );
  }
  return bytes;
}

async function readBody(body: unknown, maxBytes: number): Promise<Buffer> {
  if (body === undefined || body === null || typeof (body as Readable).on !== 'function') {
    throw new ProblemException(
      problemTypes.unsupportedMediaType,
      'Send the file as the request body, with its Content-Type.',
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of bodyChunks(body as Readable)) {
    size += chunk.length;
    if (size > maxBytes) {
      throw new ProblemException(
        problemTypes.payloadTooLarge,
        `Files verified in the request may be at most ${maxBytes} bytes; upload larger ones and use POST /verify.`,
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The problem for an image the engines refuse: an unsupported kind, or unreadable pixels. */
export function imageProblem(error: unknown): ProblemException | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'unsupported_format') {
    return new ProblemException(
      problemTypes.unsupportedMediaType,
      'This kind of image cannot be verified (animated, multi-page, or an unsupported colour model).',
    );
  }
  if (code === 'invalid_image' || code === 'too_many_pixels') {
    return new ProblemException(
      problemTypes.imageUnreadable,
      code === 'too_many_pixels'
        ? 'The image has more pixels than this deployment reads.'
        : 'The image is corrupt or truncated.',
    );
  }
  return null;
}
