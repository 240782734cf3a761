// The invisible mark: a 64-bit payload hidden in an image's luma, recoverable after resizing,
// cropping, rotation and re-compression without the original.
export { type Detection, type DetectOptions, detectMark } from './detect.ts';
export { type EmbedOptions, embedMark, type MarkedImage } from './embed.ts';
export {
  ImageTooSmallError,
  InvalidImageError,
  InvisibleMarkError,
  type InvisibleMarkErrorCode,
  PixelLimitError,
  UnsupportedImageFormatError,
} from './errors.ts';
export {
  DEFAULT_MAX_PIXELS,
  IMAGE_FORMATS,
  type ImageFormat,
  MIN_DETECT_SIDE,
  MIN_MARK_SIDE,
} from './image-io.ts';
export {
  INVISIBLE_MARK_ALGORITHM,
  type MarkPayload,
  payloadFromHex,
  payloadToHex,
} from './payload.ts';
