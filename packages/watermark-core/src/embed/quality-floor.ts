// The quality floor every marked file keeps against its original (README.md#design): PSNR >= 40 dB
// over RGB and SSIM >= 0.985 on luma, measured on the encoded file as a viewer decodes it. The
// perceptual mask sets the strength for the typical image; two kinds of image leave the floor
// at that strength: busy textures at the mark's RMS cap whose re-encode adds its own error (JPEG
// requantisation), and dark or smooth pictures whose flat areas have so little
// variance that SSIM drops under 0.985 at the flat-area amplitude. For those the strength is cut
// by what the measurement says is missing: the RMS cap when PSNR is short (the busiest chips give
// way first, the cheapest for detection), every amplitude when SSIM is short.
//
// Small images (under 0.4 MP) go the other way first: they hold few copies of the tile (a 0.15 MP
// avatar about 8, a 12 MP photo 64) and need all the strength the floor allows. They climb a
// ladder of flat-area amplitudes, and at each rung a file short of PSNR alone has its busiest
// chips cut to fit: SSIM, which flat areas spend, bounds the rung; PSNR only moves energy from
// busy chips to flat ones, which the detector weighs more (it divides by the local contrast).
// Larger images, most of which sit far inside the floor at the default, start at 1.8 and are
// cut like any other when they leave the floor: one trial for an image with room.

import type { MarkGrid } from '../code/mark-geometry.ts';
import {
  type DecodedImage,
  decodeImage,
  type EncodeOptions,
  encodeImage,
  encodingNeedsOriginal,
} from '../image/image-io.ts';
import { mseAt } from '../image/quality-metrics.ts';
import { type Measured, measureFor, type QualityAim } from './floor-measure.ts';
import { addMarkField, markField } from './mark-field.ts';
import {
  DEFAULT_STRENGTH,
  markRms,
  perceptualStrength,
  type StrengthSettings,
} from './perceptual-strength.ts';

/** Images below this many pixels try stronger flat-area amplitudes than the default (1.2). */
export const SMALL_IMAGE_PIXELS = 400_000;
/**
 * Flat-area amplitudes small images climb, weakest first. Steps of 0.15: SSIM bounds most small
 * images between two rungs, and steps of 0.3 left strength unused that the floor allowed
 * (README.md#design, quality floor).
 */
const SMALL_FLAT_LADDER = [1.2, 1.35, 1.5, 1.65, 1.8, 1.95, 2.1, 2.25, 2.4] as const;
/** The rung small images start at (1.8, near where most of them end). */
const SMALL_LADDER_START = 4;
/** Cuts of the busiest chips a rung may take to fit PSNR before it counts as too strong. */
const RUNG_CUTS = 2;
/** Flat-area amplitude larger images (0.4 MP or more, RGB) start at. */
const LARGER_FLAT = 1.8;
/** Cuts tried at most before the last one is kept. */
const MAX_CUTS = 3;
/** Each cut aims this much below what the measurement asks, so one cut usually suffices. */
const CUT_MARGIN = 0.985;

interface Trial extends Measured {
  readonly encoded: Uint8Array;
  /** False when the file did not read back as the input did (then it is kept as it is). */
  readonly measured: boolean;
  /** The mark's root-mean-square change by its chip amplitudes (what `maxRms` caps). */
  readonly markRms: number;
  readonly settings: StrengthSettings;
}

/** A file that could not be measured: it fits no floor. */
const UNMEASURED: Measured = { psnr: -Infinity, ssim: -Infinity, markMse: 0 };

/**
 * The encoded marked file within the quality floor: stronger than the default for small images
 * with room, weaker where the default leaves the floor. An image is marked once per trial, so the
 * caller must not mark it again.
 */
export async function markWithinFloor(
  decoded: DecodedImage,
  grid: MarkGrid,
  contrast: Float32Array,
  payload: bigint,
  options: EncodeOptions,
): Promise<Uint8Array> {
  const { width, height, channels, hasAlpha } = decoded.pixels;
  const { measure, aim: floor, sampled } = measureFor(decoded, options);
  // A large image is marked in place (its pixels are 36 MB at 12 MP), and decoded again in the
  // rare case a trial leaves the floor; others are marked on a copy.
  const inPlace = sampled && !encodingNeedsOriginal(decoded, options);
  let source = decoded;
  let trials = 0;
  const trial = async (settings: StrengthSettings): Promise<Trial> => {
    if (inPlace && trials > 0) source = await decodeImage(decoded.input, width * height, decoded);
    trials++;
    const strength = perceptualStrength(contrast, settings);
    const marked = inPlace ? source.pixels : { ...source.pixels, data: source.pixels.data.slice() };
    const original = measure.keep(source.pixels);
    addMarkField(marked, grid, markField(grid, strength, payload));
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
  const rgb = channels === 3 && !hasAlpha;
  const small = width * height < SMALL_IMAGE_PIXELS && rgb;
  const larger = !small && rgb;

  // A rung of the small images' ladder: that flat-area amplitude, the busiest chips cut while
  // PSNR alone is short.
  const rung = async (flat: number): Promise<Trial> => {
    let t = await trial({ ...DEFAULT_STRENGTH, flat });
    for (let cut = 0; cut < RUNG_CUTS && t.measured && !fits(t) && t.ssim >= floor.ssim; cut++) {
      t = await trial(weaker(t, floor));
    }
    return t;
  };

  let current: Trial;
  if (small) {
    // SSIM falls as the flat amplitude grows: climb from the start while rungs fit, or step down
    // to the first that does.
    let index = SMALL_LADDER_START;
    current = await rung(SMALL_FLAT_LADDER[index] as number);
    if (!current.measured) return current.encoded;
    const step = fits(current) ? 1 : -1;
    let best = fits(current) ? current : null;
    for (index += step; index >= 0 && index < SMALL_FLAT_LADDER.length; index += step) {
      if (best !== null && step < 0) break;
      current = await rung(SMALL_FLAT_LADDER[index] as number);
      if (!current.measured) break;
      if (fits(current)) best = current;
      else if (step > 0) break;
    }
    if (best !== null) return best.encoded;
    // Not even the weakest rung fits (an SSIM-bound picture): cut it like any other.
  } else {
    current = await trial(larger ? { ...DEFAULT_STRENGTH, flat: LARGER_FLAT } : DEFAULT_STRENGTH);
  }
  // A file that does not read back as the input did is kept as it is, unmeasured.
  if (!current.measured) return current.encoded;
  for (let cut = 0; cut < MAX_CUTS && !fits(current); cut++) {
    const next = await trial(weaker(current, floor));
    if (!next.measured) break;
    current = next;
  }
  return current.encoded;
}

/**
 * Settings that should bring a trial within the floor. The file's error is the mark's plus the
 * re-encode's own (about independent), so PSNR asks for a mark of `floor MSE - other error`; the
 * SSIM deficit grows with the mark's variance, so it scales amplitudes by sqrt of the ratio.
 */
function weaker(trial: Trial, floor: QualityAim): StrengthSettings {
  let settings = trial.settings;
  if (trial.psnr < floor.psnr) {
    const fileMse = mseAt(trial.psnr);
    const allowed = mseAt(floor.psnr);
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
