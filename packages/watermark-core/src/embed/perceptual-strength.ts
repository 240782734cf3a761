// How strongly each chip may be marked. The eye misses small changes in busy texture and sees
// them in flat areas (skies, walls, fog), so each chip's amplitude grows with the local contrast
// of the image, from a low floor for flat areas up to a cap. The contrast is measured at three
// samples per chip side, and a chip takes the lowest among its own and its neighbours' samples:
// the mark is spread evenly over a chip and blended into the next, so a flat sky beside a branch
// or a cable must keep the flat-area amplitude.

import type { MarkGrid } from '../code/mark-geometry.ts';
import { boxBlur } from '../image/filters.ts';

export interface StrengthSettings {
  /** Amplitude (8-bit levels) in perfectly flat areas. */
  readonly flat: number;
  /** Amplitude added per level of local contrast (RMS of luma minus its 3x3 mean). */
  readonly gain: number;
  /** Largest amplitude, in 8-bit levels. */
  readonly max: number;
  /** Cap on the root-mean-square change per pixel (sets the worst-case PSNR). */
  readonly maxRms: number;
}

export const DEFAULT_STRENGTH: StrengthSettings = {
  flat: 1.2,
  gain: 1.6,
  max: 8,
  maxRms: 2.6,
};

/** Luma pixels per chip side that the contrast is measured at. */
export const CONTRAST_SAMPLES_PER_CHIP = 3;

/**
 * How busy each chip is (grid.columns x grid.rows): the local contrast of the image's luma at
 * CONTRAST_SAMPLES_PER_CHIP times the grid resolution, over the chip's flattest part and its
 * neighbours. Independent of the strength settings, so computed once per image (embed.ts does it
 * while the full decode still runs).
 */
export function chipContrast(luma: Float32Array, grid: MarkGrid): Float32Array {
  const s = CONTRAST_SAMPLES_PER_CHIP;
  const { columns, rows } = grid;
  const width = columns * s;
  const height = rows * s;
  // Local contrast: root-mean-square, over 3x3, of the luma minus its 3x3 mean.
  const mean = boxBlur(luma, width, height, 1);
  for (let i = 0; i < mean.length; i++) mean[i] = ((luma[i] as number) - (mean[i] as number)) ** 2;
  const contrast = boxBlur(mean, width, height, 1);
  // A chip is as busy as its flattest part: the mark spreads evenly over the chip, and a flat
  // patch within it (sky beside a branch) is where a change would show.
  const perChip = new Float32Array(columns * rows).fill(Infinity);
  for (let y = 0; y < height; y++) {
    const chipRow = ((y / s) | 0) * columns;
    const row = y * width;
    for (let cx = 0; cx < columns; cx++) {
      let m = perChip[chipRow + cx] as number;
      for (let x = cx * s; x < cx * s + s; x++) {
        const c = contrast[row + x] as number;
        if (c < m) m = c;
      }
      perChip[chipRow + cx] = m;
    }
  }
  for (let i = 0; i < perChip.length; i++)
    perChip[i] = Math.sqrt(Math.max(0, perChip[i] as number));
  // Interpolation spreads each chip's change over its neighbours' area too.
  return minFilter3(perChip, columns, rows);
}

/** Chip amplitudes (8-bit levels) from the chips' contrast (`chipContrast`) and the settings. */
export function perceptualStrength(
  contrast: Float32Array,
  settings: StrengthSettings = DEFAULT_STRENGTH,
): Float32Array {
  const strength = new Float32Array(contrast.length);
  for (let i = 0; i < strength.length; i++) {
    strength[i] = Math.min(settings.max, settings.flat + settings.gain * (contrast[i] as number));
  }
  // Over the PSNR budget, the busiest chips give way first (a lower cap): per unit of energy they
  // add the least to detection, since the detector weighs areas by the inverse of their contrast.
  if (markRms(strength, settings.max) > settings.maxRms) {
    let low = 0;
    let high = settings.max;
    for (let step = 0; step < 16; step++) {
      const mid = (low + high) / 2;
      if (markRms(strength, mid) > settings.maxRms) high = mid;
      else low = mid;
    }
    for (let i = 0; i < strength.length; i++) strength[i] = Math.min(strength[i] as number, low);
  }
  return strength;
}

/**
 * Root-mean-square change per pixel of a mark with these chip amplitudes (each capped at `cap`):
 * bilinear interpolation of independent +-a chips leaves 4/9 of their energy per pixel.
 */
export function markRms(strength: Float32Array, cap = Infinity): number {
  let sumSq = 0;
  for (let i = 0; i < strength.length; i++) {
    const a = strength[i] as number;
    const capped = Math.min(a, cap);
    sumSq += capped * capped;
  }
  return Math.sqrt((sumSq / strength.length) * (4 / 9));
}

/** Minimum over each 3x3 neighbourhood (clamped at the borders): a row pass, then a column pass. */
function minFilter3(src: Float32Array, width: number, height: number): Float32Array {
  const rows = new Float32Array(src.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const left = src[row + (x > 0 ? x - 1 : 0)] as number;
      const centre = src[row + x] as number;
      const right = src[row + (x < width - 1 ? x + 1 : x)] as number;
      rows[row + x] = Math.min(left, centre, right);
    }
  }
  const out = new Float32Array(src.length);
  for (let y = 0; y < height; y++) {
    const above = (y > 0 ? y - 1 : 0) * width;
    const row = y * width;
    const below = (y < height - 1 ? y + 1 : y) * width;
    for (let x = 0; x < width; x++) {
      out[row + x] = Math.min(
        rows[above + x] as number,
        rows[row + x] as number,
        rows[below + x] as number,
      );
    }
  }
  return out;
}
