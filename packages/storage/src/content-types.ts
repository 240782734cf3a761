/** Image types Hallmark accepts, with the file extensions that name them. */
export const IMAGE_CONTENT_TYPES = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/webp': ['webp'],
  'image/avif': ['avif'],
  'image/tiff': ['tif', 'tiff'],
  'image/heic': ['heic', 'heif'],
} as const satisfies Record<string, readonly string[]>;

export type ImageContentType = keyof typeof IMAGE_CONTENT_TYPES;

export function isImageContentType(value: string): value is ImageContentType {
  return Object.hasOwn(IMAGE_CONTENT_TYPES, value);
}

/** `image/jpeg` → `jpg`. */
export function extensionOf(contentType: ImageContentType): string {
  return IMAGE_CONTENT_TYPES[contentType][0];
}
