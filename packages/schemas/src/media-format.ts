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
  /**
   * The invisible mark can be embedded: in an image by the pixel engines, which decode and
   * re-encode it; in an MP4 or MOV frame by frame (the video mark, through ffmpeg, which writes
   * the marked file in the same container).
   */
  readonly markable: boolean;
  /**
   * Signed and read in bounded memory, however large (ISO BMFF movies, whose media data
   * c2pa-node hashes chunk by chunk): such files may be as large as MEDIA_UPLOAD_MAX_BYTES.
   * c2pa-node 0.8.0 holds every other format whole (WAV and AVI about twice over), so those are
   * limited as images are.
   */
  readonly streamed: boolean;
}

function row(
  format: MediaFormatName,
  mimeType: string,
  kind: MediaKind,
  extensions: readonly string[],
  traits: { readonly markable?: boolean; readonly streamed?: boolean } = {},
): MediaType {
  return Object.freeze({
    format,
    mimeType,
    kind,
    extensions: Object.freeze(extensions),
    markable: traits.markable ?? false,
    streamed: traits.streamed ?? false,
  });
}

const MARKABLE = { markable: true };
const STREAMED = { streamed: true };

export const MEDIA_TYPES: readonly MediaType[] = Object.freeze([
  row('jpeg', 'image/jpeg', 'image', ['jpg', 'jpeg'], MARKABLE),
  row('png', 'image/png', 'image', ['png'], MARKABLE),
  row('webp', 'image/webp', 'image', ['webp'], MARKABLE),
  row('avif', 'image/avif', 'image', ['avif'], MARKABLE),
  row('heic', 'image/heic', 'image', ['heic']),
  row('heif', 'image/heif', 'image', ['heif']),
  row('tiff', 'image/tiff', 'image', ['tiff', 'tif'], MARKABLE),
  row('gif', 'image/gif', 'image', ['gif']),
  row('svg', 'image/svg+xml', 'image', ['svg']),
  row('dng', 'image/x-adobe-dng', 'image', ['dng']),
  row('jxl', 'image/jxl', 'image', ['jxl']),
  row('mp4', 'video/mp4', 'video', ['mp4', 'm4v'], { markable: true, streamed: true }),
  row('mov', 'video/quicktime', 'video', ['mov', 'qt'], { markable: true, streamed: true }),
  row('avi', 'video/x-msvideo', 'video', ['avi']),
  row('m4a', 'audio/mp4', 'audio', ['m4a', 'm4b'], STREAMED),
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
