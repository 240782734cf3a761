// Typed failures with stable codes, so the worker can fail a job with a clear reason.

export type InvisibleMarkErrorCode =
  | 'invalid_image'
  | 'image_too_small'
  | 'too_many_pixels'
  | 'unsupported_format';

/** Base class of every error the invisible-mark functions throw on purpose. */
export class InvisibleMarkError extends Error {
  override name = 'InvisibleMarkError';
  readonly code: InvisibleMarkErrorCode;

  constructor(code: InvisibleMarkErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** The bytes are not a decodable image (truncated, corrupt, or not an image at all). */
export class InvalidImageError extends InvisibleMarkError {
  override name = 'InvalidImageError';
  constructor(message: string, options?: ErrorOptions) {
    super('invalid_image', message, options);
  }
}

/** The image's short side is below the minimum the mark needs. */
export class ImageTooSmallError extends InvisibleMarkError {
  override name = 'ImageTooSmallError';
  constructor(message: string) {
    super('image_too_small', message);
  }
}

/** The image has more pixels than the configured limit. */
export class PixelLimitError extends InvisibleMarkError {
  override name = 'PixelLimitError';
  constructor(message: string) {
    super('too_many_pixels', message);
  }
}

/** A real image, but of a kind the mark does not handle (format, colour space, animation). */
export class UnsupportedImageFormatError extends InvisibleMarkError {
  override name = 'UnsupportedImageFormatError';
  constructor(message: string) {
    super('unsupported_format', message);
  }
}
