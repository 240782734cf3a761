// A small colour JPEG of a picture, within a byte budget: what Hallmark keeps of a picture when
// it keeps less than the picture (a job's content reference, an ingredient's thumbnail).
import sharp from 'sharp';

const QUALITIES = [85, 75, 65, 55, 45];

export interface BoundedJpegOptions {
  /** Longest side, in pixels (never larger than the picture). */
  readonly side: number;
  readonly maxBytes: number;
  /** Larger inputs are refused by sharp (a decompression bomb is never decoded). */
  readonly maxPixels: number;
}

/**
 * The picture resized to fit `side`, JPEG (4:2:0), the best quality that fits `maxBytes`; a
 * picture too detailed even then is made smaller.
 */
export async function boundedJpeg(
  image: Uint8Array,
  options: BoundedJpegOptions,
): Promise<Uint8Array> {
  let side = options.side;
  for (;;) {
    const resized = await sharp(image, { limitInputPixels: options.maxPixels })
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
      if (bytes.length <= options.maxBytes) return new Uint8Array(bytes);
    }
    side = Math.round(side * 0.8);
  }
}
