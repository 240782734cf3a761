// The fingerprint and the mark from one decode of an image: a verification reads both.
import { type Detection, detectionLevel, searchMark } from '../detect/detect.ts';
import { inspectImage, MIN_DETECT_SIDE } from '../image/image-io.ts';
import { fingerprintOfLuma, type Orientation } from './luma-hash.ts';

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
  const level = await detectionLevel(image, info, maxPixels);
  const markable = Math.min(info.width, info.height) >= MIN_DETECT_SIDE;
  const detection = detect && markable ? await searchMark(image, info, maxPixels, level) : null;
  return {
    detection,
    fingerprint: fingerprintOfLuma(level.luma, level.width, level.height, orientationOf(detection)),
  };
}

/**
 * A copy turned by quarter turns or mirrored is fingerprinted the original's way up, as the
 * mark's geometry tells; small rotations are left alone (the fingerprint tolerates them).
 */
function orientationOf(detection: Detection | null): Orientation | undefined {
  const geometry = detection?.geometry;
  if (geometry === undefined) return undefined;
  const quarter = ((Math.round(geometry.rotation / 90) % 4) + 4) % 4;
  if (quarter === 0 && !geometry.mirrored) return undefined;
  const axes: ReadonlyArray<readonly [number, number]> = [
    [1, 0],
    [0, 1],
    [-1, 0],
    [0, -1],
  ];
  const x = axes[quarter] ?? [1, 0];
  // The original's y axis is its x axis turned a quarter clockwise, or anticlockwise if mirrored.
  const y: readonly [number, number] = geometry.mirrored ? [x[1], -x[0]] : [-x[1], x[0]];
  return { x, y };
}
