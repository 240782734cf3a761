// The content reference kept with a marked output: a small colour JPEG of the issued picture, so
// a copy can later be compared with what was issued, region by region, without keeping the
// output itself (retention deletes outputs; references stay with the job).
import sharp from 'sharp';

/** Longest side of a reference, in pixels (never larger than the output). */
export const REFERENCE_SIDE = 512;
/** Largest reference kept per job. */
export const REFERENCE_MAX_BYTES = 64 * 1024;

const QUALITIES = [85, 75, 65, 55, 45];

/**
 * The reference of an issued output: resized to fit REFERENCE_SIDE, JPEG (4:2:0), the best
 * quality that fits REFERENCE_MAX_BYTES; a picture too detailed even then is made smaller.
 */
export async function makeContentReference(
  image: Uint8Array,
  maxPixels: number,
): Promise<Uint8Array> {
  let side = REFERENCE_SIDE;
  for (;;) {
    const resized = await sharp(image, { limitInputPixels: maxPixels })
      .resize(side, side, { fit: 'inside', withoutEnlargement: true, kernel: 'lanczos3' })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    for (const quality of QUALITIES) {
      const bytes = await sharp(resized.data, {
        raw: {
          width: resized.info.width,
          height: resized.info.height,
          channels: resized.info.channels,
        },
      })
        .jpeg({ quality, chromaSubsampling: '4:2:0' })
        .toBuffer();
      if (bytes.length <= REFERENCE_MAX_BYTES) return new Uint8Array(bytes);
    }
    side = Math.round(side * 0.8);
  }
}
