// The package's only door to pixels: decoding with sharp into typed arrays and encoding back, with
// the input's format, size, bit depth, alpha, ICC profile and metadata preserved. Pixels are read
// in the file's own colour space (no ICC conversion), so the re-encoded file with the original
// profile attached shows the same colours plus the mark.
import sharp, { type Metadata, type Sharp, type SharpOptions } from 'sharp';
import { isLosslessWebp, transplantMetadata } from './container-metadata.ts';
import {
  ImageTooSmallError,
  InvalidImageError,
  InvisibleMarkError,
  PixelLimitError,
  UnsupportedImageFormatError,
} from './errors.ts';
import { estimateJpegQuality } from './jpeg-quality.ts';

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'tiff';
export const IMAGE_FORMATS: readonly ImageFormat[] = ['jpeg', 'png', 'webp', 'avif', 'tiff'];

/** Default pixel limit (width x height): 50 MP decodes in well under 1 GB. */
export const DEFAULT_MAX_PIXELS = 50_000_000;
/** Shortest side accepted for marking. */
export const MIN_MARK_SIDE = 256;
/** Shortest side accepted for detection (marked images may have been shrunk since). */
export const MIN_DETECT_SIDE = 128;

type ColourSpace = 'srgb' | 'rgb16' | 'b-w' | 'grey16';

/** Interleaved samples of a decoded image (8-bit or 16-bit). */
export interface PixelBuffer {
  readonly data: Uint8Array | Uint16Array;
  readonly width: number;
  readonly height: number;
  readonly channels: number;
  /** The last channel is alpha and must not change. */
  readonly hasAlpha: boolean;
}

export interface ImageInfo {
  readonly format: ImageFormat;
  readonly width: number;
  readonly height: number;
  readonly hasAlpha: boolean;
  readonly grey: boolean;
  /** 16 for images decoded as 16-bit samples (16-bit PNG/TIFF, 10/12-bit AVIF). */
  readonly bitDepth: 8 | 16;
  readonly metadata: Metadata;
}

export interface DecodedImage extends ImageInfo {
  readonly input: Uint8Array;
  readonly pixels: PixelBuffer;
}

const SUPPORTED_SPACES = new Set(['srgb', 'rgb', 'rgb16', 'b-w', 'grey16']);

/** Reads the header and checks the image is one we handle, within the pixel limit. */
export async function inspectImage(
  input: Uint8Array,
  maxPixels: number,
  minSide: number,
): Promise<ImageInfo> {
  let metadata: Metadata;
  try {
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw new InvalidImageError(`not a readable image: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const format = imageFormat(metadata);
  if ((metadata.pages ?? 1) > 1) {
    throw new UnsupportedImageFormatError(
      `${format} with ${metadata.pages} pages or frames is not supported`,
    );
  }
  if (!SUPPORTED_SPACES.has(metadata.space)) {
    throw new UnsupportedImageFormatError(`colour space ${metadata.space} is not supported`);
  }
  const { width, height } = metadata;
  if (width * height > maxPixels) {
    throw new PixelLimitError(`${width}x${height} has more than the limit of ${maxPixels} pixels`);
  }
  if (Math.min(width, height) < minSide) {
    throw new ImageTooSmallError(
      `${width}x${height} is smaller than ${minSide} pixels on its short side`,
    );
  }
  return {
    format,
    width,
    height,
    hasAlpha: metadata.hasAlpha,
    grey: metadata.space === 'b-w' || metadata.space === 'grey16',
    bitDepth: metadata.depth === 'ushort' ? 16 : 8,
    metadata,
  };
}

function imageFormat(metadata: Metadata): ImageFormat {
  if (metadata.format === 'heif') {
    if (metadata.compression === 'av1') return 'avif';
    throw new UnsupportedImageFormatError(
      `HEIF with ${metadata.compression ?? 'unknown'} compression is not supported`,
    );
  }
  if ((IMAGE_FORMATS as readonly string[]).includes(metadata.format))
    return metadata.format as ImageFormat;
  throw new UnsupportedImageFormatError(`${metadata.format} images are not supported`);
}

function sharpOptions(maxPixels: number): SharpOptions {
  return { limitInputPixels: maxPixels };
}

function workingSpace(info: { grey: boolean; hasAlpha: boolean; bitDepth: 8 | 16 }): ColourSpace {
  // Grey with alpha is decoded as RGBA (sharp's grey raw output keeps only the first band).
  if (info.grey && !info.hasAlpha) return info.bitDepth === 16 ? 'grey16' : 'b-w';
  return info.bitDepth === 16 ? 'rgb16' : 'srgb';
}

async function decodeStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof InvisibleMarkError) throw error;
    const message = (error as Error).message;
    if (/pixel limit/i.test(message)) throw new PixelLimitError(message);
    throw new InvalidImageError(`cannot decode image: ${message}`, { cause: error });
  }
}

/** Full-resolution pixels in the image's own colour space and bit depth. */
export async function decodeImage(
  input: Uint8Array,
  maxPixels: number,
  info: ImageInfo,
): Promise<DecodedImage> {
  const depth = info.bitDepth === 16 ? 'ushort' : 'uchar';
  const { data, info: raw } = await decodeStep(() =>
    sharp(input, sharpOptions(maxPixels))
      .keepIccProfile()
      .toColourspace(workingSpace(info))
      .raw({ depth })
      .toBuffer({ resolveWithObject: true }),
  );
  const samples = raw.width * raw.height * raw.channels;
  const pixels =
    info.bitDepth === 16
      ? new Uint16Array(data.buffer, data.byteOffset, samples)
      : new Uint8Array(data.buffer, data.byteOffset, samples);
  return {
    ...info,
    input,
    pixels: {
      data: pixels,
      width: raw.width,
      height: raw.height,
      channels: raw.channels,
      hasAlpha: info.hasAlpha,
    },
  };
}

/**
 * The luma of an encoded image resized to `width` x `height` (sRGB, 8-bit): what the detector
 * analyses, and what the embedder measures the image's local contrast on. JPEGs are decoded at a
 * reduced scale when the target is small enough, which makes this much cheaper than a full decode.
 * The detector needs the sharper `lanczos3`; the contrast measure is content with `linear`.
 */
export async function decodeLuma(
  input: Uint8Array,
  maxPixels: number,
  width: number,
  height: number,
  kernel: 'lanczos3' | 'linear' = 'lanczos3',
): Promise<Float32Array> {
  const { data, info } = await decodeStep(() =>
    // Lenient: a copy found in the wild may carry a damaged byte, and the mark is still in the
    // rest of it. (The embedder's own decode of its input stays strict.)
    sharp(input, { ...sharpOptions(maxPixels), failOn: 'none' })
      .resize(width, height, { fit: 'fill', kernel })
      .raw()
      .toBuffer({ resolveWithObject: true }),
  );
  const channels = info.channels;
  const n = data.length / channels;
  const luma = new Float32Array(n);
  if (channels >= 3) {
    for (let i = 0, p = 0; i < n; i++, p += channels) {
      luma[i] =
        0.299 * (data[p] as number) +
        0.587 * (data[p + 1] as number) +
        0.114 * (data[p + 2] as number);
    }
  } else {
    for (let i = 0, p = 0; i < n; i++, p += channels) luma[i] = data[p] as number;
  }
  return luma;
}

export interface EncodeOptions {
  readonly format?: ImageFormat;
  /** Quality 1-100 of lossy output; JPEG defaults to the input's estimated quality. */
  readonly quality?: number;
}

/** Default quality of lossy WebP and AVIF output, whose input quality cannot be read back. */
const DEFAULT_LOSSY_QUALITY = 90;

/** True when `encodeImage` needs the original pixels beside the marked ones. */
export function encodingNeedsOriginal(image: ImageInfo, options: EncodeOptions = {}): boolean {
  const format = options.format ?? image.format;
  return (
    format === image.format &&
    (format === 'tiff' || format === 'avif') &&
    !(image.grey && image.hasAlpha)
  );
}

/**
 * Encodes `marked` (the decoded image's pixels with the mark added) as `options.format` (default:
 * the input's format) with the input's metadata, bit depth and alpha. `image.pixels` must still be
 * the original pixels when `encodingNeedsOriginal` says so.
 */
export async function encodeImage(
  image: DecodedImage,
  marked: PixelBuffer,
  options: EncodeOptions = {},
): Promise<Uint8Array> {
  const format = options.format ?? image.format;
  const sameFormat = format === image.format;
  const pixels = marked;
  if (encodingNeedsOriginal(image, options)) {
    // No byte-level metadata copy for these containers: let sharp re-encode the original with its
    // metadata, turning its pixels into the marked ones by XOR (exact at any bit depth).
    const xor = image.pixels.data.slice();
    for (let i = 0; i < xor.length; i++) xor[i] = (xor[i] as number) ^ (pixels.data[i] as number);
    const encoder = sharp(image.input, { limitInputPixels: false })
      // sharp reads a Uint16Array operand as 16-bit samples; its typings only name Buffer.
      .boolean(xor as unknown as Buffer, 'eor', { raw: rawOf(pixels) })
      .keepMetadata()
      .toColourspace(colourSpaceOf(image, format));
    return new Uint8Array(await withFormat(encoder, format, image, options).toBuffer());
  }
  const encoded = await encodePixels(image, pixels, options);
  if (sameFormat && (format === 'jpeg' || format === 'png' || format === 'webp')) {
    return transplantMetadata(image.input, encoded, {
      format,
      hasAlpha: image.hasAlpha,
      width: pixels.width,
      height: pixels.height,
    });
  }
  return encoded;
}

/**
 * Pixels of the image (all of them, or a part cut from it) encoded as `encodeImage` encodes them,
 * without metadata: for a part, what the encoder does to a sample of the image, cheaply.
 */
export async function encodePixels(
  image: DecodedImage,
  pixels: PixelBuffer,
  options: EncodeOptions = {},
): Promise<Uint8Array> {
  const format = options.format ?? image.format;
  const encoder = sharp(pixels.data, { raw: rawOf(pixels) }).toColourspace(
    colourSpaceOf(image, format),
  );
  return new Uint8Array(await withFormat(encoder, format, image, options).toBuffer());
}

function colourSpaceOf(image: ImageInfo, format: ImageFormat): ColourSpace {
  const eightBitOnly = format === 'jpeg' || format === 'webp';
  const bitDepth = eightBitOnly ? 8 : image.bitDepth;
  if (image.grey) return bitDepth === 16 ? 'grey16' : 'b-w';
  return bitDepth === 16 ? 'rgb16' : 'srgb';
}

function rawOf(pixels: PixelBuffer) {
  return {
    width: pixels.width,
    height: pixels.height,
    channels: pixels.channels as 1 | 2 | 3 | 4,
  };
}

/** True when the encoded file decodes to exactly the pixels given to `encodeImage`. */
export function encodesLosslessly(image: DecodedImage, options: EncodeOptions = {}): boolean {
  const format = options.format ?? image.format;
  if (format === 'png' || format === 'tiff') return true;
  return (
    format === 'webp' &&
    format === image.format &&
    options.quality === undefined &&
    isLosslessWebp(image.input)
  );
}

function withFormat(
  encoder: Sharp,
  format: ImageFormat,
  image: DecodedImage,
  options: EncodeOptions,
): Sharp {
  const sameFormat = format === image.format;
  switch (format) {
    case 'jpeg':
      return encoder.jpeg({
        quality:
          options.quality ??
          (sameFormat ? estimateJpegQuality(image.input) : undefined) ??
          DEFAULT_LOSSY_QUALITY,
        chromaSubsampling: image.metadata.chromaSubsampling === '4:4:4' ? '4:4:4' : '4:2:0',
        progressive: sameFormat && image.metadata.isProgressive,
      });
    case 'png':
      return encoder.png();
    case 'webp':
      return sameFormat && options.quality === undefined && isLosslessWebp(image.input)
        ? encoder.webp({ lossless: true, exact: true })
        : encoder.webp({
            quality: options.quality ?? DEFAULT_LOSSY_QUALITY,
            alphaQuality: 100,
            exact: true,
          });
    case 'avif': {
      const bits = image.metadata.bitsPerSample;
      return encoder.avif({
        quality: options.quality ?? DEFAULT_LOSSY_QUALITY,
        bitdepth: sameFormat && (bits === 10 || bits === 12) ? bits : 8,
      });
    }
    case 'tiff':
      return encoder.tiff({ compression: 'lzw', predictor: 'horizontal' });
  }
}
