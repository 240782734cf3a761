// The content reference kept with a marked output: a small colour JPEG of the issued picture, so
// a copy can later be compared with what was issued, region by region, without keeping the
// output itself (retention deletes outputs; references stay with the job).
import { boundedJpeg } from '../image/bounded-jpeg.ts';

/** Longest side of a reference, in pixels (never larger than the output). */
export const REFERENCE_SIDE = 512;
/** Largest reference kept per job. */
export const REFERENCE_MAX_BYTES = 64 * 1024;

/**
 * The reference of an issued output: resized to fit REFERENCE_SIDE, JPEG (4:2:0), the best
 * quality that fits REFERENCE_MAX_BYTES; a picture too detailed even then is made smaller.
 */
export function makeContentReference(image: Uint8Array, maxPixels: number): Promise<Uint8Array> {
  return boundedJpeg(image, { side: REFERENCE_SIDE, maxBytes: REFERENCE_MAX_BYTES, maxPixels });
}
