// The raster image view of the media formats, for the pixel engines and the image-only upload
// paths: the same table (media-format.ts) and the same sniffer (media-sniff.ts), answered in the
// shape these callers were written against.
import { type ImageFormatName, type MediaFormatName, mediaTypeFor } from './media-format.ts';
import { sniffMediaFormat } from './media-sniff.ts';

export type { ImageFormatName } from './media-format.ts';

export type SniffedFormat =
  | { readonly image: true; readonly format: ImageFormatName; readonly mimeType: string }
  /** Something else, named when recognised (`pdf`, `mp4`, …), else `unknown`. */
  | { readonly image: false; readonly format: string };

export const IMAGE_FORMATS: readonly ImageFormatName[] = Object.freeze([
  'jpeg',
  'png',
  'webp',
  'avif',
  'heic',
  'heif',
  'tiff',
  'gif',
]);

const IMAGE_FORMAT_SET: ReadonlySet<string> = new Set(IMAGE_FORMATS);

/**
 * The names this view has always given formats that are not raster images: callers show them in
 * messages, and their tests compare them.
 */
const EARLIER_NAMES: Partial<Record<MediaFormatName | string, string>> = {
  mov: 'quicktime',
  m4a: 'mp4',
  'jxl-codestream': 'jxl',
};

export function mimeTypeOf(format: ImageFormatName): string {
  return mediaTypeFor(format).mimeType;
}

/** Identifies the container from its first bytes (64 are enough for every raster format). */
export function sniffImageFormat(bytes: Uint8Array): SniffedFormat {
  const sniffed = sniffMediaFormat(bytes);
  const format = sniffed.known ? sniffed.type.format : sniffed.format;
  // A DNG is a TIFF to the pixel engines, as it always was here.
  if (format === 'dng') return { image: true, format: 'tiff', mimeType: mimeTypeOf('tiff') };
  if (isImageFormatName(format)) return { image: true, format, mimeType: mimeTypeOf(format) };
  return { image: false, format: EARLIER_NAMES[format] ?? format };
}

function isImageFormatName(format: string): format is ImageFormatName {
  return IMAGE_FORMAT_SET.has(format);
}
