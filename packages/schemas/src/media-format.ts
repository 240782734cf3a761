// The media formats Hallmark signs, one row each: the MIME type c2pa-node parses it by, what kind
// of media it is, its file extensions, and whether the invisible image mark fits in it. Part of
// the contract because the API's upload check, the storage keys and the engines must agree; pure,
// so the API checks uploads without loading the native engines. Recognition by magic bytes lives
// in media-sniff.ts.

/** Raster image containers: the formats the pixel engines and the image upload path know. */
export type ImageFormatName = 'jpeg' | 'png' | 'webp' | 'avif' | 'heic' | 'heif' | 'tiff' | 'gif';

/**
 * Every container c2pa-node 0.8.0 embeds a manifest in, each signed and read back by
 * watermark-core's tests. Left out: PDF (c2pa-node reads it but does not sign it) and a bare JPEG
 * XL codestream (it signs only the box container, `jxl` here).
 */
export type MediaFormatName =
  | ImageFormatName
  | 'svg'
  | 'dng'
  | 'jxl'
  | 'mp4'
  | 'mov'
  | 'avi'
  | 'm4a'
  | 'mp3'
  | 'wav'
  | 'flac';

export type MediaKind = 'image' | 'video' | 'audio';

export interface MediaType {
  readonly format: MediaFormatName;
  /** The canonical MIME type, the one c2pa-node picks its parser by. */
  readonly mimeType: string;
  readonly kind: MediaKind;
  /** File extensions without the dot; the first is the canonical one. */
  readonly extensions: readonly string[];
  /** The invisible image mark can be embedded (the pixel engines decode and re-encode it). */
  readonly markable: boolean;
}

function row(
  format: MediaFormatName,
  mimeType: string,
  kind: MediaKind,
  extensions: readonly string[],
  markable = false,
): MediaType {
  return Object.freeze({ format, mimeType, kind, extensions: Object.freeze(extensions), markable });
}

export const MEDIA_TYPES: readonly MediaType[] = Object.freeze([
  row('jpeg', 'image/jpeg', 'image', ['jpg', 'jpeg'], true),
  row('png', 'image/png', 'image', ['png'], true),
  row('webp', 'image/webp', 'image', ['webp'], true),
  row('avif', 'image/avif', 'image', ['avif'], true),
  row('heic', 'image/heic', 'image', ['heic']),
  row('heif', 'image/heif', 'image', ['heif']),
  row('tiff', 'image/tiff', 'image', ['tiff', 'tif'], true),
  row('gif', 'image/gif', 'image', ['gif']),
  row('svg', 'image/svg+xml', 'image', ['svg']),
  row('dng', 'image/x-adobe-dng', 'image', ['dng']),
  row('jxl', 'image/jxl', 'image', ['jxl']),
  row('mp4', 'video/mp4', 'video', ['mp4', 'm4v']),
  row('mov', 'video/quicktime', 'video', ['mov', 'qt']),
  row('avi', 'video/x-msvideo', 'video', ['avi']),
  row('m4a', 'audio/mp4', 'audio', ['m4a', 'm4b']),
  row('mp3', 'audio/mpeg', 'audio', ['mp3']),
  row('wav', 'audio/wav', 'audio', ['wav']),
  row('flac', 'audio/flac', 'audio', ['flac']),
]);

const BY_FORMAT = new Map(MEDIA_TYPES.map((type) => [type.format, type]));
const BY_MIME_TYPE = new Map(MEDIA_TYPES.map((type) => [type.mimeType, type]));

/** The row of a format name; every MediaFormatName has one. */
export function mediaTypeFor(format: MediaFormatName): MediaType {
  const type = BY_FORMAT.get(format);
  if (type === undefined) throw new Error(`no media type for ${format}`);
  return type;
}

/**
 * The row of a canonical MIME type, case-insensitively; parameters (`; codecs=…`) are ignored.
 * Aliases (`audio/x-wav`, `video/avi`) are not canonical and give undefined: a client's
 * Content-Type is compared with what the bytes are, never trusted for it.
 */
export function mediaTypeOf(mimeType: string): MediaType | undefined {
  const essence = mimeType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return BY_MIME_TYPE.get(essence);
}
