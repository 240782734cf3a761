// How strongly each chip may be marked. The eye misses small changes in busy texture and sees
// them in flat areas (skies, walls, fog), so each chip's amplitude follows the local contrast of
// the image at the chip's scale, with a low floor for flat areas and a cap. The contrast is taken
// as the minimum over the chip's neighbourhood so that a flat sky next to a branch stays faint.
import { boxBlur, highPass, localRms } from './filters.ts';
import type { MarkGrid } from './mark-geometry.ts';

export interface StrengthSettings {
  /** Amplitude (8-bit levels) in perfectly flat areas. */
  readonly flat: number;
  /** Amplitude added per level of local contrast. */
  readonly gain: number;
  /** Largest amplitude, in 8-bit levels. */
  readonly max: number;
  /** Cap on the root-mean-square change per pixel (sets the worst-case PSNR). */
  readonly maxRms: number;
}

export const DEFAULT_STRENGTH: StrengthSettings = { flat: 1.6, gain: 0.6, max: 6, maxRms: 2.4 };

/**
 * Chip amplitudes (grid.columns x grid.rows) from the image's luma at twice the grid resolution.
 */
export function perceptualStrength(
  luma2x: Float32Array,
  grid: MarkGrid,
  settings: StrengthSettings = DEFAULT_STRENGTH,
): Float32Array {
  const w2 = grid.columns * 2;
  const h2 = grid.rows * 2;
  const contrast = localRms(highPass(luma2x, w2, h2, 1), w2, h2, 2);
  const { columns, rows } = grid;
  const perChip = new Float32Array(columns * rows);
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < columns; i++) {
      const p = 2 * j * w2 + 2 * i;
      perChip[j * columns + i] = Math.min(
        contrast[p] as number,
        contrast[p + 1] as number,
        contrast[p + w2] as number,
        contrast[p + w2 + 1] as number,
      );
    }
  }
  const eroded = minFilter3(perChip, columns, rows);
  const smooth = boxBlur(eroded, columns, rows, 1);
  const strength = new Float32Array(columns * rows);
  for (let i = 0; i < strength.length; i++) {
    strength[i] = Math.min(settings.max, settings.flat + settings.gain * (smooth[i] as number));
  }
  // Over the PSNR budget, the busiest chips give way first (a lower cap): per unit of energy they
  // add the least to detection, since the detector weighs areas by the inverse of their contrast.
  // Bilinear interpolation of independent +-a chips leaves 4/9 of their energy per pixel.
  const rmsWithCap = (cap: number) => {
    let sumSq = 0;
    for (const a of strength) sumSq += Math.min(a, cap) ** 2;
    return Math.sqrt((sumSq / strength.length) * (4 / 9));
  };
  if (rmsWithCap(settings.max) > settings.maxRms) {
    let low = 0;
    let high = settings.max;
    for (let step = 0; step < 30; step++) {
      const mid = (low + high) / 2;
      if (rmsWithCap(mid) > settings.maxRms) high = mid;
      else low = mid;
    }
    for (let i = 0; i < strength.length; i++) strength[i] = Math.min(strength[i] as number, low);
  }
  return strength;
}

function minFilter3(src: Float32Array, width: number, height: number): Float32Array {
  const out = new Float32Array(src.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let m = Infinity;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = Math.min(height - 1, Math.max(0, y + dy));
        for (let dx = -1; dx <= 1; dx++) {
          const xx = Math.min(width - 1, Math.max(0, x + dx));
          m = Math.min(m, src[yy * width + xx] as number);
        }
      }
      out[y * width + x] = m;
    }
  }
  return out;
}
