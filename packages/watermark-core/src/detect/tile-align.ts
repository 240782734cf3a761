// Alignment of the folded tile: which of the eight orientations of the square tile (the lattice
// basis is only known up to the square's symmetries, which also covers 90-degree turns and
// mirror images) and which cyclic shift make it match the pilot chips. Then the coded bits are
// read out as soft values at the aligned chip positions.

import { CODED_BITS } from '../code/frame-code.ts';
import { markLayout, TILE } from '../code/mark-layout.ts';
import { fft2d, realFft2d } from '../image/fft.ts';
import { chipReadouts, REACH, TAPS } from './chip-equaliser.ts';
import { FOLD_BINS } from './tile-fold.ts';

/** A 2x2 integer matrix (a b; c d) of the square's symmetry group. */
export type Symmetry = readonly [number, number, number, number];

const SYMMETRIES: readonly Symmetry[] = [
  [1, 0, 0, 1],
  [0, -1, 1, 0],
  [-1, 0, 0, -1],
  [0, 1, -1, 0],
  [-1, 0, 0, 1],
  [1, 0, 0, -1],
  [0, 1, 1, 0],
  [0, -1, -1, 0],
];

/** The matrix (a b; c d) of symmetry `index`: folded = (a b; c d) * original + shift. */
export function symmetryMatrix(index: number): Symmetry {
  return SYMMETRIES[index] as Symmetry;
}

export interface Alignment {
  readonly symmetry: number;
  /** Position in the folded tile (bins) of the tile's origin chip. */
  readonly shiftX: number;
  readonly shiftY: number;
  /** z-score of the pilot correlation peak. */
  readonly z: number;
}

const ALL_SYMMETRIES = SYMMETRIES.map((_, s) => s);

// FOLD_BINS is a power of two: the bits below it wrap any integer, negative ones included.
const wrap = (i: number) => i & (FOLD_BINS - 1);

/** The pilot chips drawn at half-chip resolution, as the bilinear embedding renders them. */
function pilotAtBins(): Float64Array {
  const bins = FOLD_BINS;
  const out = new Float64Array(bins * bins);
  const chip = (cx: number, cy: number) =>
    markLayout.pilot[
      (((cy % TILE) + TILE) % TILE) * TILE + (((cx % TILE) + TILE) % TILE)
    ] as number;
  for (let y = 0; y < bins; y++) {
    for (let x = 0; x < bins; x++) {
      const cx = x >> 1;
      const cy = y >> 1;
      const nx = x & 1 ? cx + 1 : cx;
      const ny = y & 1 ? cy + 1 : cy;
      out[y * bins + x] = (chip(cx, cy) + chip(nx, cy) + chip(cx, ny) + chip(nx, ny)) / 4;
    }
  }
  return out;
}

// Spectra of the pilot template under each symmetry: fixed, so computed once per process.
const templateSpectra = (() => {
  const bins = FOLD_BINS;
  const pilot = pilotAtBins();
  return SYMMETRIES.map(([a, b, c, d]) => {
    const re = new Float64Array(bins * bins);
    const im = new Float64Array(bins * bins);
    // P_S(w) = P(S^-1 w); S is orthogonal with integer entries, so S^-1 = S^T.
    for (let y = 0; y < bins; y++) {
      for (let x = 0; x < bins; x++) {
        const tx = wrap(a * x + c * y);
        const ty = wrap(b * x + d * y);
        re[y * bins + x] = pilot[ty * bins + tx] as number;
      }
    }
    fft2d(re, im, bins, bins);
    return { re, im };
  });
})();

/**
 * Best alignments of a folded tile, strongest pilot correlation first, among the given symmetries
 * (default: all eight).
 */
export function alignTile(
  folded: Float64Array,
  count: number,
  symmetries: readonly number[] = ALL_SYMMETRIES,
): Alignment[] {
  const bins = FOLD_BINS;
  const n = bins * bins;
  const fRe = Float64Array.from(folded);
  const fIm = new Float64Array(n);
  realFft2d(fRe, fIm, bins, bins);
  const found: Alignment[] = [];
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  // The fold and the templates are real, so each cross-correlation is real: two symmetries share
  // one inverse transform, the first's spectrum as the real part and i times the second's (the
  // first correlation comes out in the real part, the second in the imaginary part).
  for (let k = 0; k < symmetries.length; k += 2) {
    const first = symmetries[k] as number;
    const second = symmetries[k + 1];
    const t = templateSpectra[first] as { re: Float64Array; im: Float64Array };
    const u = second === undefined ? null : templateSpectra[second];
    for (let i = 0; i < n; i++) {
      // F * conj(T): cross-correlation.
      const ar = fRe[i] as number;
      const ai = fIm[i] as number;
      const br = t.re[i] as number;
      const bi = t.im[i] as number;
      re[i] = ar * br + ai * bi;
      im[i] = ai * br - ar * bi;
      if (u !== null && u !== undefined) {
        const cr = u.re[i] as number;
        const ci = u.im[i] as number;
        re[i] = (re[i] as number) - (ai * cr - ar * ci);
        im[i] = (im[i] as number) + (ar * cr + ai * ci);
      }
    }
    fft2d(re, im, bins, bins, true);
    found.push(...peaksOf(re, first));
    if (second !== undefined) found.push(...peaksOf(im, second));
  }
  return found.sort((a, b) => b.z - a.z).slice(0, count);
}

/**
 * The two strongest peaks of one orientation's correlation, the second at least 3 bins (on the
 * torus) from the first, as alignments: one pass for the first and the statistics, one for the
 * second.
 */
function peaksOf(correlation: Float64Array, symmetry: number): Alignment[] {
  const bins = FOLD_BINS;
  const n = bins * bins;
  let sum = 0;
  let sumSq = 0;
  let first = 0;
  for (let i = 0; i < n; i++) {
    const v = correlation[i] as number;
    sum += v;
    sumSq += v * v;
    if (v > (correlation[first] as number)) first = i;
  }
  const mean = sum / n;
  const std = Math.sqrt(Math.max(sumSq / n - mean * mean, 1e-30));
  const fx = first % bins;
  const fy = (first - fx) / bins;
  let second = -1;
  for (let y = 0; y < bins; y++) {
    const dy = Math.abs(y - fy);
    const nearRow = Math.min(dy, bins - dy) < 3;
    for (let x = 0; x < bins; x++) {
      const i = y * bins + x;
      if (second >= 0 && (correlation[i] as number) <= (correlation[second] as number)) continue;
      if (nearRow) {
        const dx = Math.abs(x - fx);
        if (Math.min(dx, bins - dx) < 3) continue;
      }
      second = i;
    }
  }
  const alignment = (peak: number): Alignment => {
    const bx = peak % bins;
    const by = (peak - bx) / bins;
    const c = correlation[peak] as number;
    const at = (x: number, y: number) => correlation[wrap(y) * bins + wrap(x)] as number;
    const refine = (l: number, r: number) => {
      const d = l - 2 * c + r;
      return d < 0 ? Math.max(-0.5, Math.min(0.5, (l - r) / (2 * d))) : 0;
    };
    return {
      symmetry,
      shiftX: bx + refine(at(bx - 1, by), at(bx + 1, by)),
      shiftY: by + refine(at(bx, by - 1), at(bx, by + 1)),
      z: (c - mean) / std,
    };
  };
  return second < 0 ? [alignment(first)] : [alignment(first), alignment(second)];
}

/** The coded bits as one readout of the chips gives them. */
export interface CodedBits {
  /** Soft value per coded bit (positive: bit 0). */
  readonly soft: Float64Array;
  /** How clearly this readout shows the pilots (chip-equaliser.ts). */
  readonly pilotSnr: number;
}

/**
 * The coded bits under an alignment, once per readout of the chips (chip-equaliser.ts), the
 * likelier first: each chip read from the bins around its centre.
 */
export function readCodedBits(folded: Float64Array, alignment: Alignment): CodedBits[] {
  const samples = chipNeighbourhoods(folded, alignment);
  return chipReadouts(samples, markLayout.pilot).map(({ weights, pilotSnr }) => {
    const soft = new Float64Array(CODED_BITS);
    for (let chip = 0; chip < TILE * TILE; chip++) {
      const k = markLayout.slot[chip] as number;
      if (k < 0) continue;
      let value = 0;
      for (let i = 0; i < TAPS; i++)
        value += (weights[i] as number) * (samples[chip * TAPS + i] as number);
      soft[k] = (markLayout.carrier[chip] as number) * value;
    }
    return { soft, pilotSnr };
  });
}

/**
 * Every chip's neighbourhood of TAPS bins, its offsets along the original's axes (mapped by the
 * alignment's symmetry), chip after chip in row-major order. Chips and offsets lie a whole number
 * of bins from the alignment's shift, so every sample shares the shift's fraction: the tile is
 * interpolated at that fraction once and then read bin by bin.
 */
function chipNeighbourhoods(folded: Float64Array, alignment: Alignment): Float64Array {
  const bins = FOLD_BINS;
  const [a, b, c, d] = SYMMETRIES[alignment.symmetry] as Symmetry;
  const baseX = Math.floor(alignment.shiftX);
  const baseY = Math.floor(alignment.shiftY);
  const fx = alignment.shiftX - baseX;
  const fy = alignment.shiftY - baseY;
  const shifted = new Float64Array(bins * bins);
  for (let y = 0; y < bins; y++) {
    const row = y * bins;
    const next = wrap(y + 1) * bins;
    for (let x = 0; x < bins; x++) {
      const right = wrap(x + 1);
      shifted[row + x] =
        (1 - fy) * ((1 - fx) * (folded[row + x] as number) + fx * (folded[row + right] as number)) +
        fy * ((1 - fx) * (folded[next + x] as number) + fx * (folded[next + right] as number));
    }
  }
  const samples = new Float64Array(TILE * TILE * TAPS);
  for (let cy = 0; cy < TILE; cy++) {
    for (let cx = 0; cx < TILE; cx++) {
      const x = a * 2 * cx + b * 2 * cy + baseX;
      const y = c * 2 * cx + d * 2 * cy + baseY;
      let at = (cy * TILE + cx) * TAPS;
      for (let dy = -REACH; dy <= REACH; dy++) {
        for (let dx = -REACH; dx <= REACH; dx++) {
          samples[at++] = shifted[
            wrap(y + c * dx + d * dy) * bins + wrap(x + a * dx + b * dy)
          ] as number;
        }
      }
    }
  }
  return samples;
}
