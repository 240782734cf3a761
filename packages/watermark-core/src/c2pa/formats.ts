// Which containers can carry a manifest: c2pa-node needs the true MIME type to find the right
// parser, so the container is recognised by its magic bytes (the contract's sniffer), never by a
// file name or a client's Content-Type.
import {
  MEDIA_TYPES,
  type MediaFormatName,
  mediaTypeFor,
  sniffMediaFormat,
} from '@hallmark/schemas';
import { UnsupportedFormatError } from './errors.ts';

/** Containers c2pa-node 0.8.0 embeds manifests in, each verified by this module's tests. */
export type C2paFormat = MediaFormatName;

export const C2PA_FORMATS: readonly C2paFormat[] = Object.freeze(
  MEDIA_TYPES.map((type) => type.format),
);

/**
 * The formats signManifestFile and readManifestFile handle in bounded memory (the contract's
 * `streamed`): ISO BMFF movies, whose media data c2pa-node hashes chunk by chunk
 * (BUILDER_SETTINGS). Measured in c2pa-media-memory.test.ts.
 */
export const C2PA_STREAMED_FORMATS: readonly C2paFormat[] = Object.freeze(
  MEDIA_TYPES.filter((type) => type.streamed).map((type) => type.format),
);

/** The canonical MIME type c2pa-node parses the format by. */
export function mimeTypeOf(format: C2paFormat): string {
  return mediaTypeFor(format).mimeType;
}

/**
 * Identifies the container from its first bytes (SNIFF_BYTES are enough); throws
 * UnsupportedFormatError, naming what the bytes are, otherwise.
 */
export function detectC2paFormat(bytes: Uint8Array): C2paFormat {
  const found = sniffMediaFormat(bytes);
  if (found.known) return found.type.format;
  throw new UnsupportedFormatError(found.format);
}
