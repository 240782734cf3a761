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

export const DEFAULT_STRENGTH: StrengthSettings = {
  flat: Number(process.env.FLAT ?? 1.6),
  gain: Number(process.env.GAIN ?? 0.6),
  max: Number(process.env.MAXA ?? 6),
  maxRms: Number(process.env.MAXRMS ?? 2.4),
};

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
  let sumSq = 0;
  for (let i = 0; i < strength.length; i++) {
    const a = Math.min(settings.max, settings.flat + settings.gain * (smooth[i] as number));
    strength[i] = a;
    sumSq += a * a;
  }
  // Bilinear interpolation of independent +-a chips has 4/9 of their energy per pixel.
  const rms = Math.sqrt((sumSq / strength.length) * (4 / 9));
  if (rms > settings.maxRms) {
    const k = settings.maxRms / rms;
    for (let i = 0; i < strength.length; i++) strength[i] = (strength[i] as number) * k;
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
