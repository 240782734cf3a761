import { UnknownContentTypeError } from './errors.ts';
import { openFileBlob } from './node-files.ts';
import type { FileBytes } from './upload.ts';

/** What `watermarkFile` accepts: a path (Node only), bytes, or a `Blob`/`File` (browsers). */
export type WatermarkInput = string | FileBytes;

/** Overrides for what would otherwise be read off the input. */
export interface FileHints {
  /** Defaults to the `File`'s name or the path's last segment, else `upload.<extension>`. */
  readonly fileName?: string | undefined;
  /** Defaults to the `Blob`'s type, else the file name's extension. */
  readonly contentType?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** A file ready to announce (`createUploadLink`) and upload. */
export interface FileToUpload {
  readonly bytes: FileBytes;
  readonly size: number;
  readonly fileName: string;
  readonly contentType: string;
}

/**
 * The types a name's extension can vouch for; lower case, without the dot. The API's accepted
 * types (its OpenAPI document's upload-link request) are the same list.
 */
const CONTENT_TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  tiff: 'image/tiff',
  tif: 'image/tiff',
  heic: 'image/heic',
  heif: 'image/heif',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  dng: 'image/x-adobe-dng',
  jxl: 'image/jxl',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  qt: 'video/quicktime',
  avi: 'video/x-msvideo',
  m4a: 'audio/mp4',
  m4b: 'audio/mp4',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  flac: 'audio/flac',
};

/** The file extensions the SDK (and the CLI) can tell a type by, without the dot. */
export const KNOWN_EXTENSIONS: readonly string[] = Object.keys(CONTENT_TYPES_BY_EXTENSION);

/** The media type an extension stands for, e.g. `image/jpeg` for `IMG_001.JPG`. */
export function contentTypeOfName(fileName: string | undefined): string | undefined {
  const extension = fileName?.match(/\.([^.]+)$/)?.[1]?.toLowerCase();
  return extension === undefined ? undefined : CONTENT_TYPES_BY_EXTENSION[extension];
}

/** Reads the input (only a path needs reading) and settles its file name and media type. */
export async function fileToUpload(input: WatermarkInput, hints: FileHints): Promise<FileToUpload> {
  const named = hints.fileName ?? nameOf(input);
  const contentType = hints.contentType ?? blobType(input) ?? contentTypeOfName(named);
  // Settled before reading, so a file of unknown type is refused without being read.
  if (contentType === undefined) throw new UnknownContentTypeError(named);
  const bytes = typeof input === 'string' ? await openFileBlob(input, hints.signal) : input;
  return {
    bytes,
    size: bytes instanceof Blob ? bytes.size : bytes.byteLength,
    fileName: named ?? `upload${extensionOf(contentType)}`,
    contentType,
  };
}

/** A path's last segment (both separators, for Windows paths), or a `File`'s name. */
function nameOf(input: WatermarkInput): string | undefined {
  if (typeof input === 'string') return input.split(/[/\\]/).pop() || undefined;
  if (typeof File !== 'undefined' && input instanceof File && input.name) return input.name;
  return undefined;
}

/** `Blob.type` is `''` when unknown; parameters are dropped because the API refuses them. */
function blobType(input: WatermarkInput): string | undefined {
  if (!(input instanceof Blob)) return undefined;
  return input.type.split(';')[0]?.trim() || undefined;
}

function extensionOf(contentType: string): string {
  const entry = Object.entries(CONTENT_TYPES_BY_EXTENSION).find(([, type]) => type === contentType);
  return entry ? `.${entry[0]}` : '';
}
