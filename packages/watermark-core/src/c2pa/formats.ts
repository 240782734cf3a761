// Which image containers can carry a manifest: c2pa-node needs the true MIME type to find the
// right parser, so the container is recognised by its magic bytes (the contract's sniffer).
import { IMAGE_FORMATS, type ImageFormatName, sniffImageFormat } from '@hallmark/schemas';
import { UnsupportedFormatError } from './errors.ts';

/** Containers c2pa-node 0.8.0 embeds manifests in, each verified by this module's tests. */
export type C2paFormat = ImageFormatName;

export const C2PA_FORMATS: readonly C2paFormat[] = IMAGE_FORMATS;

export { mimeTypeOf } from '@hallmark/schemas';

/** Identifies the container from its first bytes; throws UnsupportedFormatError otherwise. */
export function detectC2paFormat(bytes: Uint8Array): C2paFormat {
  const found = sniffImageFormat(bytes);
  if (found.image) return found.format;
  throw new UnsupportedFormatError(found.format);
}
