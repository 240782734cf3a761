// The fingerprint and the mark from one decode of an image: a verification reads both.
import { type Detection, detectInLuma } from '../invisible/detect.ts';
import { decodeLuma, inspectImage, MIN_DETECT_SIDE } from '../invisible/image-io.ts';
import { detectionSize } from '../invisible/mark-geometry.ts';
import { fingerprintOfLuma } from './luma-hash.ts';

/** The image's fingerprint, 16 hex digits. */
export async function fingerprintImage(image: Uint8Array, maxPixels: number): Promise<string> {
  return (await readMarkAndFingerprint(image, maxPixels, false)).fingerprint;
}

/**
 * The invisible mark and the fingerprint from one decode of the image. An image too small for
 * the mark has none (its fingerprint is still taken).
 */
export async function readMarkAndFingerprint(
  image: Uint8Array,
  maxPixels: number,
  detect = true,
): Promise<{ readonly detection: Detection | null; readonly fingerprint: string }> {
  const info = await inspectImage(image, maxPixels, 1);
  const size = detectionSize(info.width, info.height);
  const luma = await decodeLuma(image, maxPixels, size.width, size.height);
  const markable = Math.min(info.width, info.height) >= MIN_DETECT_SIDE;
  return {
    detection: detect && markable ? detectInLuma(luma, size.width, size.height) : null,
    fingerprint: fingerprintOfLuma(luma, size.width, size.height),
  };
}
