// The invisible mark: a 64-bit payload hidden in an image's luma, recoverable after resizing,
// cropping, rotation and re-compression without the original.
//
// Also the package's `./invisible` entry: a pixel thread that imports only this keeps its heap
// small (no C2PA, certificate and schema code), which matters because the mark's large
// short-lived buffers make V8 collect the whole heap often (figures:
// README.md#measurements-behind-the-constants).

export { markTilePixels } from './code/mark-geometry.ts';
export {
  INVISIBLE_MARK_ALGORITHM,
  type MarkPayload,
  payloadFromHex,
  payloadToHex,
} from './code/payload.ts';
export {
  type Detection,
  type DetectOptions,
  detectMark,
  type MarkGeometry,
} from './detect/detect.ts';
export { type EmbedOptions, embedMark, type MarkedImage } from './embed/embed.ts';
// The verifier's pixel read (mark and fingerprint from one decode) runs in pixel threads too.
export { readMarkAndFingerprint } from './fingerprint/read-fingerprint.ts';
export {
  ImageTooSmallError,
  InvalidImageError,
  InvisibleMarkError,
  type InvisibleMarkErrorCode,
  PixelLimitError,
  UnsupportedImageFormatError,
} from './image/errors.ts';
export {
  DEFAULT_MAX_PIXELS,
  IMAGE_FORMATS,
  type ImageFormat,
  MIN_DETECT_SIDE,
  MIN_MARK_SIDE,
} from './image/image-io.ts';
export { setPixelThreads } from './image/pixel-threads.ts';
