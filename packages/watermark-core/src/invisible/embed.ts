// embedMark: decode, measure where the image can hide a change, add the tiled mark to luma,
// re-encode with the input's format and metadata.
import {
  DEFAULT_MAX_PIXELS,
  decodeImage,
  type EncodeOptions,
  encodeImage,
  encodingNeedsOriginal,
  type ImageFormat,
  resizedLuma,
} from './image-io.ts';
import { addMarkField, markField } from './mark-field.ts';
import { markGrid } from './mark-geometry.ts';
import { assertPayload, type MarkPayload } from './payload.ts';
import { perceptualStrength } from './perceptual-strength.ts';

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
  const decoded = await decodeImage(image, options.maxPixels ?? DEFAULT_MAX_PIXELS);
  const { pixels } = decoded;
  const grid = markGrid(pixels.width, pixels.height);
  const luma = await resizedLuma(pixels, grid.columns * 2, grid.rows * 2);
  const field = markField(grid, perceptualStrength(luma, grid), payload);
  const marked = encodingNeedsOriginal(decoded, options)
    ? { ...pixels, data: pixels.data.slice() }
    : pixels;
  addMarkField(marked, grid, field);
  const encoded = await encodeImage(decoded, marked, options);
  return {
    image: encoded,
    format: options.format ?? decoded.format,
    width: pixels.width,
    height: pixels.height,
  };
}
