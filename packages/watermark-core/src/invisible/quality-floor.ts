// The quality floor every marked file keeps against its original (issue 16): PSNR >= 40 dB over
// RGB and SSIM >= 0.985 on luma, measured on the encoded file as a viewer decodes it. The
// perceptual mask sets the strength for the typical image; two kinds of image leave the floor
// at that strength: busy textures at the mark's RMS cap whose re-encode adds its own error (JPEG
// requantisation: 38.7-39.9 dB), and dark or smooth pictures whose flat areas have so little
// variance that SSIM drops under 0.985 at the flat-area amplitude. For those the strength is cut
// by what the measurement says is missing: the RMS cap when PSNR is short (the busiest chips give
// way first, the cheapest for detection), every amplitude when SSIM is short.
//
// Small images (under 0.4 MP) go the other way first: they hold few copies of the tile (a 0.15 MP
// avatar about 8, a 12 MP photo 64) and need all the strength the floor allows, so stronger
// flat-area amplitudes are tried while the file stays within the floor.
import {
  type DecodedImage,
  decodeImage,
  type EncodeOptions,
  encodeImage,
  encodeSample,
  encodesLosslessly,
  encodingNeedsOriginal,
  type PixelBuffer,
} from './image-io.ts';
import { addMarkField, markField } from './mark-field.ts';
import type { MarkGrid } from './mark-geometry.ts';
import {
  DEFAULT_STRENGTH,
  markRms,
  perceptualStrength,
  type StrengthSettings,
} from './perceptual-strength.ts';
import { meanSquaredError, type RasterImage, ssimAgainst } from './quality-metrics.ts';

/**
 * The floor as measured here: 40 dB and 0.985 plus a margin for the sampled SSIM (see ssimStride),
 * which reads up to about 3e-4 high with every eighth window.
 */
export const QUALITY_FLOOR = { psnr: 40.1, ssim: 0.9852, sparseSsim: 0.9855 } as const;
/** Images below this many pixels try stronger flat-area amplitudes than the default (1.2). */
export const SMALL_IMAGE_PIXELS = 400_000;
/** Flat-area amplitudes small images try, weakest first: an image with no room costs one trial. */
const SMALL_FLAT_CANDIDATES = [1.5, 1.8] as const;
/**
 * Images measured on their whole file. Larger ones are measured on SAMPLE_COLUMNS x SAMPLE_ROWS
 * windows of SAMPLE_SIDE pixels encoded apart: a decode and an SSIM of a 12 MP file would cost
 * more than the embed itself (bench target). JPEG works in 8x8 or 16x16 blocks, so a window on
 * block borders encodes as it does within the whole.
 */
export const MEASURED_PIXELS = 4_200_000;
const SAMPLE_SIDE = 256;
const SAMPLE_COLUMNS = 3;
const SAMPLE_ROWS = 2;
/** Sampled PSNR and SSIM vary with where the windows fall: a wider margin. */
const SAMPLED_FLOOR = { psnr: 40.25, ssim: 0.9858 } as const;
/**
 * SSIM over every other window in each direction under 0.4 MP (within about 1e-4 of the full
 * one), every eighth above, where the full one would cost more than the rest of the embed (the
 * mean over about 16,000 windows or more, within about 3e-4).
 */
function ssimStride(pixels: number): number {
  return pixels < SMALL_IMAGE_PIXELS ? 2 : 8;
}
/** Cuts tried at most before the last one is kept. */
const MAX_CUTS = 3;
/** Each cut aims this much below what the measurement asks, so one cut usually suffices. */
const CUT_MARGIN = 0.985;

interface Trial {
  readonly encoded: Uint8Array;
  /** False when the file did not read back as the input did (then it is kept as it is). */
  readonly measured: boolean;
  readonly psnr: number;
  readonly ssim: number;
  /** Mean squared change of the mark alone, before encoding (RGB samples). */
  readonly markMse: number;
  /** The mark's root-mean-square change by its chip amplitudes (what `maxRms` caps). */
  readonly markRms: number;
  readonly settings: StrengthSettings;
}

/** A trial's quality as measured (on the whole file, or on sample windows). */
interface Measured {
  readonly psnr: number;
  readonly ssim: number;
  readonly markMse: number;
}

/** A file that could not be measured: it fits no floor. */
const UNMEASURED: Measured = { psnr: -Infinity, ssim: -Infinity, markMse: 0 };

/**
 * The encoded marked file of an 8-bit image within the quality floor: stronger than the default
 * for small images with room, weaker where the default leaves the floor. Null for 16-bit samples
 * (the caller marks them at the default strength). An image is marked once per trial, so the
 * caller must not mark it again.
 */
export async function markWithinFloor(
  decoded: DecodedImage,
  grid: MarkGrid,
  contrastLuma: Float32Array,
  payload: bigint,
  options: EncodeOptions,
): Promise<Uint8Array | null> {
  const { data, width, height, channels, hasAlpha } = decoded.pixels;
  if (!(data instanceof Uint8Array)) return null;
  const sampled = width * height > MEASURED_PIXELS;
  const measure = sampled
    ? sampleMeasure(decoded, options)
    : wholeFileMeasure(decoded, options, ssimStride(width * height));
  const floor = sampled
    ? SAMPLED_FLOOR
    : {
        psnr: QUALITY_FLOOR.psnr,
        ssim: width * height < SMALL_IMAGE_PIXELS ? QUALITY_FLOOR.ssim : QUALITY_FLOOR.sparseSsim,
      };
  // A large image is marked in place (its pixels are 36 MB at 12 MP), and decoded again in the
  // rare case a trial leaves the floor.
  let source = decoded;
  let sourceIntact = true;
  const trial = async (settings: StrengthSettings): Promise<Trial> => {
    if (!sourceIntact) {
      source = await decodeImage(decoded.input, width * height, decoded);
      sourceIntact = true;
    }
    const strength = perceptualStrength(contrastLuma, grid, settings);
    const inPlace = sampled && !encodingNeedsOriginal(decoded, options);
    const marked = inPlace ? source.pixels : { ...source.pixels, data: source.pixels.data.slice() };
    const original = measure.keep(source.pixels);
    addMarkField(marked, grid, markField(grid, strength, payload));
    sourceIntact = !inPlace;
    // libvips encodes on its own threads: the measuring runs meanwhile.
    const encoding = encodeImage(source, marked, options);
    const [measured, encoded] = await Promise.all([
      measure.run(original, marked, encoding),
      encoding,
    ]);
    return {
      ...(measured ?? UNMEASURED),
      measured: measured !== null,
      encoded,
      markRms: markRms(strength),
      settings,
    };
  };
  const fits = (t: Trial) => t.psnr >= floor.psnr && t.ssim >= floor.ssim;

  let current = await trial(DEFAULT_STRENGTH);
  // A file that does not read back as the input did is kept as it is, unmeasured.
  if (!current.measured) return current.encoded;
  if (fits(current)) {
    const small = width * height < SMALL_IMAGE_PIXELS && channels === 3 && !hasAlpha;
    if (!small) return current.encoded;
    let best = current;
    for (const flat of SMALL_FLAT_CANDIDATES) {
      const stronger = await trial({ ...DEFAULT_STRENGTH, flat });
      if (!fits(stronger)) break;
      best = stronger;
    }
    return best.encoded;
  }
  for (let cut = 0; cut < MAX_CUTS && !fits(current); cut++) {
    const next = await trial(weaker(current, floor));
    if (!next.measured) break;
    current = next;
  }
  return current.encoded;
}

interface Measure {
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
  let ssimOf: ((image: RasterImage) => number) | null = null;
  return {
    keep: (original) => original,
    async run(original, marked, encoding) {
      const { width, height, channels, hasAlpha } = original;
      const before = raster(original);
      ssimOf ??= ssimAgainst(before, stride);
      const markMse = meanSquaredError(before, raster(marked), hasAlpha);
      if (lossless) return { ...quality(markMse, ssimOf(raster(marked))), markMse };
      // Read back exactly as the input was read (same format, depth and colour space).
      const back = (await decodeImage(await encoding, width * height, decoded)).pixels.data;
      if (!(back instanceof Uint8Array) || back.length !== before.data.length) return null;
      const file = { data: back, width, height, channels };
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
        const encoded = await encodeSample(decoded, after, options);
        const back = (await decodeImage(encoded, after.width * after.height, stackInfo)).pixels
          .data;
        if (!(back instanceof Uint8Array) || back.length !== after.data.length) return null;
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
  const data = new Uint8Array(corners.length * side * side * channels);
  const source = pixels.data as Uint8Array;
  corners.forEach(({ x, y }, i) => {
    for (let row = 0; row < side; row++) {
      const from = ((y + row) * width + x) * channels;
      data.set(source.subarray(from, from + side * channels), (i * side + row) * side * channels);
    }
  });
  return { ...pixels, data, width: side, height: side * corners.length };
}

function raster(pixels: PixelBuffer): RasterImage {
  return {
    data: pixels.data as Uint8Array,
    width: pixels.width,
    height: pixels.height,
    channels: pixels.channels,
  };
}

function quality(fileMse: number, ssim: number): { psnr: number; ssim: number } {
  return { psnr: fileMse === 0 ? Infinity : 10 * Math.log10((255 * 255) / fileMse), ssim };
}

/**
 * Settings that should bring a trial within the floor. The file's error is the mark's plus the
 * re-encode's own (about independent), so PSNR asks for a mark of `floor MSE - other error`; the
 * SSIM deficit grows with the mark's variance, so it scales amplitudes by sqrt of the ratio.
 */
function weaker(trial: Trial, floor: { psnr: number; ssim: number }): StrengthSettings {
  let settings = trial.settings;
  if (trial.psnr < floor.psnr) {
    const fileMse = (255 * 255) / 10 ** (trial.psnr / 10);
    const allowed = (255 * 255) / 10 ** (floor.psnr / 10);
    const other = Math.max(0, fileMse - trial.markMse);
    const wanted = Math.max(0.25 * trial.markMse, allowed - other);
    const ratio = Math.sqrt(wanted / trial.markMse) * CUT_MARGIN;
    settings = { ...settings, maxRms: Math.min(settings.maxRms, trial.markRms) * ratio };
  }
  if (trial.ssim < floor.ssim) {
    const ratio = Math.sqrt((1 - floor.ssim) / (1 - trial.ssim)) * CUT_MARGIN;
    settings = {
      ...settings,
      flat: settings.flat * ratio,
      gain: settings.gain * ratio,
      maxRms: settings.maxRms * ratio,
    };
  }
  return settings;
}
