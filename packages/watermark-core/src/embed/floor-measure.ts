// How a trial of the quality floor is measured (quality-floor.ts decides what to try): the
// marked file against the original as a viewer decodes both, PSNR over RGB and SSIM on luma. Up to
// MEASURED_PIXELS the whole file; above, sample windows encoded on their own, since a decode and an
// SSIM of a 12 MP file would cost more than the embed itself (the bench in README.md#results).
// Each way aims a little above the floor by what its estimate may be off.
import {
  type DecodedImage,
  decodeImage,
  type EncodeOptions,
  encodePixels,
  encodesLosslessly,
  type PixelBuffer,
} from '../image/image-io.ts';
import {
  meanSquaredError,
  psnrOf,
  type RasterImage,
  ssimAgainst,
} from '../image/quality-metrics.ts';

/** A quality floor or aim: PSNR (dB, RGB) and SSIM (luma) of the file against the original. */
export interface QualityAim {
  readonly psnr: number;
  readonly ssim: number;
}

/** Images measured on their whole file; larger ones on SAMPLE_COLUMNS x SAMPLE_ROWS windows. */
export const MEASURED_PIXELS = 4_200_000;
/** Under this many pixels SSIM is taken over every other window, above over every eighth. */
const FINE_SSIM_PIXELS = 400_000;
/**
 * What the whole-file measure aims at: 40 dB and 0.985 plus a margin, wider for SSIM over every
 * eighth window, which reads a little off the full one, mostly high (README.md#design).
 */
const WHOLE_FILE_AIM = { psnr: 40.1, fineSsim: 0.9852, sparseSsim: 0.9855 } as const;
const SAMPLE_SIDE = 256;
const SAMPLE_COLUMNS = 3;
const SAMPLE_ROWS = 2;
/** Sampled PSNR and SSIM vary with where the windows fall: a wider margin. */
const SAMPLED_AIM: QualityAim = { psnr: 40.25, ssim: 0.9858 };

/** A trial's quality as measured. */
export interface Measured {
  readonly psnr: number;
  readonly ssim: number;
  /** Mean squared change of the mark alone, before encoding (RGB samples). */
  readonly markMse: number;
}

export interface Measure {
  /**
   * What must be kept of the original before it is marked in place (the sample windows), as a
   * buffer `run` takes for the original.
   */
  keep(original: PixelBuffer): PixelBuffer;
  /**
   * Measures marked pixels (and their file, being encoded) against what `keep` kept of the
   * original; null when the file does not read back.
   */
  run(
    original: PixelBuffer,
    marked: PixelBuffer,
    encoding: Promise<Uint8Array>,
  ): Promise<Measured | null>;
}

/** The whole file, decoded as a viewer would (a lossless file: the marked pixels themselves). */
function wholeFileMeasure(decoded: DecodedImage, options: EncodeOptions, stride: number): Measure {
  const lossless = encodesLosslessly(decoded, options);
  // The original is the same pixels in every trial (marked on a copy): taken to 8 bits and
  // prepared for SSIM once.
  let reference: { before: RasterImage; ssimOf: (image: RasterImage) => number } | null = null;
  return {
    keep: (original) => original,
    async run(original, marked, encoding) {
      const { width, height, hasAlpha } = original;
      if (reference === null) {
        const before = raster(original);
        reference = { before, ssimOf: ssimAgainst(before, stride) };
      }
      const { before, ssimOf } = reference;
      const after = raster(marked);
      const markMse = meanSquaredError(before, after, hasAlpha);
      if (lossless) return { ...quality(markMse, ssimOf(after)), markMse };
      // Read back exactly as the input was read (same format, depth and colour space).
      const back = (await decodeImage(await encoding, width * height, decoded)).pixels;
      if (!sameSamples(back.data, original.data)) return null;
      const file = raster({ ...original, data: back.data });
      return { ...quality(meanSquaredError(before, file, hasAlpha), ssimOf(file)), markMse };
    },
  };
}
/**
 * SAMPLE_COLUMNS x SAMPLE_ROWS windows of SAMPLE_SIDE pixels spread over a large image, stacked
 * one under the other into one small image that is encoded and decoded on its own. PSNR is taken
 * over all of them, SSIM as the mean of each window's.
 */
function sampleMeasure(decoded: DecodedImage, options: EncodeOptions): Measure {
  const lossless = encodesLosslessly(decoded, options);
  const windows = sampleWindows(decoded.pixels.width, decoded.pixels.height);
  const side = SAMPLE_SIDE;
  const stackInfo = { ...decoded, width: side, height: side * windows.length };
  const window = (stacked: PixelBuffer, i: number): PixelBuffer => {
    const size = side * side * stacked.channels;
    return { ...stacked, height: side, data: stacked.data.subarray(i * size, (i + 1) * size) };
  };
  return {
    keep: (original) => stackWindows(original, windows),
    async run(original, marked) {
      const after = stackWindows(marked, windows);
      const { hasAlpha } = original;
      const markMse = meanSquaredError(raster(original), raster(after), hasAlpha);
      let file = after;
      if (!lossless) {
        // The stacked windows go through the encoder as one image: its blocks encode as each
        // window's would alone (only the chroma upsampling at a seam sees the next window).
        const encoded = await encodePixels(decoded, after, options);
        const back = (await decodeImage(encoded, after.width * after.height, stackInfo)).pixels
          .data;
        if (!sameSamples(back, after.data)) return null;
        file = { ...after, data: back };
      }
      let ssim = 0;
      for (let i = 0; i < windows.length; i++) {
        ssim += ssimAgainst(raster(window(original, i)), 4)(raster(window(file, i)));
      }
      const fileMse = lossless
        ? markMse
        : meanSquaredError(raster(original), raster(file), hasAlpha);
      return { ...quality(fileMse, ssim / windows.length), markMse };
    },
  };
}

/** Top-left corners of the sample windows, on 16-pixel block borders, spread evenly. */
function sampleWindows(width: number, height: number): Array<{ x: number; y: number }> {
  const place = (i: number, count: number, size: number) => {
    const centred = ((i + 0.5) * size) / count - SAMPLE_SIDE / 2;
    return Math.min(size - SAMPLE_SIDE, Math.max(0, Math.round(centred / 16) * 16)) & ~15;
  };
  const corners: Array<{ x: number; y: number }> = [];
  for (let j = 0; j < SAMPLE_ROWS; j++) {
    for (let i = 0; i < SAMPLE_COLUMNS; i++) {
      corners.push({ x: place(i, SAMPLE_COLUMNS, width), y: place(j, SAMPLE_ROWS, height) });
    }
  }
  return corners;
}

/** The windows of `pixels`, copied one under the other into one buffer SAMPLE_SIDE wide. */
function stackWindows(
  pixels: PixelBuffer,
  corners: ReadonlyArray<{ x: number; y: number }>,
): PixelBuffer {
  const { channels, width } = pixels;
  const side = SAMPLE_SIDE;
  // The same kind of samples as the source (8 or 16 bits): typed as 8-bit for `set`.
  const source = pixels.data as Uint8Array;
  const length = corners.length * side * side * channels;
  const data = new (source.constructor as Uint8ArrayConstructor)(length);
  corners.forEach(({ x, y }, i) => {
    for (let row = 0; row < side; row++) {
      const from = ((y + row) * width + x) * channels;
      data.set(source.subarray(from, from + side * channels), (i * side + row) * side * channels);
    }
  });
  return { ...pixels, data, width: side, height: side * corners.length };
}

/** A file read back is measured when its samples are what the original's were (kind and count). */
function sameSamples(back: PixelBuffer['data'], original: PixelBuffer['data']): boolean {
  return back.constructor === original.constructor && back.length === original.length;
}

/**
 * The pixels as a display shows them: 8-bit samples; of 16-bit ones the top byte, as libvips
 * (and so sharp) reduces them. Slightly conservative: the rounding of both sides adds to the
 * measured change.
 */
function raster(pixels: PixelBuffer): RasterImage {
  const { data } = pixels;
  return {
    data: data instanceof Uint16Array ? topBytes(data) : data,
    width: pixels.width,
    height: pixels.height,
    channels: pixels.channels,
  };
}

function topBytes(samples: Uint16Array): Uint8Array {
  const out = new Uint8Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = (samples[i] as number) >> 8;
  return out;
}

function quality(fileMse: number, ssim: number): { psnr: number; ssim: number } {
  return { psnr: psnrOf(fileMse), ssim };
}

/**
 * How an image's trials are measured, and the aim that keeps them within the floor given how far
 * that measure may be off.
 */
export function measureFor(
  decoded: DecodedImage,
  options: EncodeOptions,
): { measure: Measure; aim: QualityAim; sampled: boolean } {
  const pixels = decoded.pixels.width * decoded.pixels.height;
  if (pixels > MEASURED_PIXELS) {
    return { measure: sampleMeasure(decoded, options), aim: SAMPLED_AIM, sampled: true };
  }
  const fine = pixels < FINE_SSIM_PIXELS;
  return {
    measure: wholeFileMeasure(decoded, options, fine ? 2 : 8),
    aim: {
      psnr: WHOLE_FILE_AIM.psnr,
      ssim: fine ? WHOLE_FILE_AIM.fineSsim : WHOLE_FILE_AIM.sparseSsim,
    },
    sampled: false,
  };
}
