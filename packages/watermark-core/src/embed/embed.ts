// embedMark: decode, measure where the image can hide a change, add the tiled mark to luma,
// re-encode with the input's format and metadata.

import { markGrid } from '../code/mark-geometry.ts';
import { assertPayload, type MarkPayload } from '../code/payload.ts';
import { fingerprintOfLuma } from '../fingerprint/luma-hash.ts';
import {
  DEFAULT_MAX_PIXELS,
  decodeImage,
  decodeLuma,
  type EncodeOptions,
  type ImageFormat,
  inspectImage,
  MIN_MARK_SIDE,
} from '../image/image-io.ts';
import { CONTRAST_SAMPLES_PER_CHIP, chipContrast } from './perceptual-strength.ts';
import { markWithinFloor } from './quality-floor.ts';

export interface EmbedOptions extends EncodeOptions {
  /** Largest accepted image (width x height); larger inputs throw PixelLimitError. Default 50 MP. */
  readonly maxPixels?: number;
}

export interface MarkedImage {
  /** The encoded marked image. */
  readonly image: Uint8Array;
  readonly format: ImageFormat;
  readonly width: number;
  readonly height: number;
  /**
   * The perceptual fingerprint of the picture (see fingerprint/luma-hash.ts), taken from the luma
   * the embedder measures anyway; the mark moves it by a few bits at most.
   */
  readonly fingerprint: string;
}

/**
 * Adds an invisible mark carrying `payload` to an encoded image (JPEG, PNG, WebP, AVIF, TIFF) and
 * returns the re-encoded image. Pure: bytes in, bytes out, safe to run in a worker thread.
 */
export async function embedMark(
  image: Uint8Array,
  payload: MarkPayload,
  options: EmbedOptions = {},
): Promise<MarkedImage> {
  assertPayload(payload);
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;
  const info = await inspectImage(image, maxPixels, MIN_MARK_SIDE);
  const grid = markGrid(info.width, info.height);
  // The full decode and the small decode the perceptual mask is measured on run at the same time
  // (libvips decodes on its own threads); the chips' contrast and the fingerprint are computed
  // from the small one while the full decode still runs.
  const lumaWidth = grid.columns * CONTRAST_SAMPLES_PER_CHIP;
  const lumaHeight = grid.rows * CONTRAST_SAMPLES_PER_CHIP;
  const measured = decodeLuma(image, maxPixels, lumaWidth, lumaHeight, 'linear').then((luma) => ({
    contrast: chipContrast(luma, grid),
    fingerprint: fingerprintOfLuma(luma, lumaWidth, lumaHeight),
  }));
  const [decoded, { contrast, fingerprint }] = await Promise.all([
    decodeImage(image, maxPixels, info),
    measured,
  ]);
  const { pixels } = decoded;
  const encoded = await markWithinFloor(decoded, grid, contrast, payload, options);
  return {
    image: encoded,
    format: options.format ?? decoded.format,
    width: pixels.width,
    height: pixels.height,
    fingerprint,
  };
}
