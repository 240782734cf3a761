/**
 * The stable `error.code` values of a failed watermark job, with what each means. The worker
 * fails jobs only with these codes; clients may branch on them. Adding a code is compatible.
 */
export const JOB_ERROR_CODES = {
  invalid_image: 'The file could not be decoded as an image (corrupt or truncated).',
  unsupported_format: 'The image format cannot be watermarked.',
  image_too_small: 'The image is smaller than the invisible mark needs (256 px short side).',
  too_many_pixels: 'The image has more pixels than this deployment accepts.',
  processing_timeout: 'Processing the image took longer than this deployment allows.',
  technique_unavailable: 'A requested technique is not available on this deployment.',
  internal_error: 'An unexpected failure persisted after every retry.',
} as const;

export type JobErrorCode = keyof typeof JOB_ERROR_CODES;
