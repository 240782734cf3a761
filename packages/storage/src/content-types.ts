/**
 * Image types Hallmark accepts, with the file extensions that name them. HEIC is absent on
 * purpose: the libvips that sharp ships decodes HEIF only with AV1 (AVIF), not HEVC.
 */
export const IMAGE_CONTENT_TYPES = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/webp': ['webp'],
  'image/avif': ['avif'],
  'image/tiff': ['tif', 'tiff'],
} as const satisfies Record<string, readonly string[]>;

export type ImageContentType = keyof typeof IMAGE_CONTENT_TYPES;

export function isImageContentType(value: string): value is ImageContentType {
  return Object.hasOwn(IMAGE_CONTENT_TYPES, value);
}

/** `image/jpeg` → `jpg`. */
export function extensionOf(contentType: ImageContentType): string {
  return IMAGE_CONTENT_TYPES[contentType][0];
}
