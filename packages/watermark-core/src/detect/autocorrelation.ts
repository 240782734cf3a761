// The autocorrelation the synchronisation searches: the power spectrum of a 512x512 window of the
// whitened residual, divided by its local mean (so neither the host image's falling spectrum nor
// its dominant edge directions drown the mark's evenly spread energy), weighted by the band where
// the mark lives, transformed back, and judged lag by lag against lags of the same length.
import { evenInverseFft2d, realFft2d } from '../image/fft.ts';

/** Side of the analysis window (pixels of the detection image). */
export const WINDOW = 512;
const MASK = WINDOW - 1;
/** Width of the cosine taper at the window's edges, so the crop's borders add no structure. */
const TAPER = 24;
/** Half-width (frequency bins) of the neighbourhood the power spectrum is whitened by. */
const WHITENING_RADIUS = 4;

/** Rings of lag length (rounded), the last one holding every longer lag. */
const RINGS = WINDOW / 2 + 2;

/** The ring of each wrapped lag, and how many lags each ring has: fixed by the window. */
const { ringOf, ringSize } = (() => {
  const ringOf = new Uint16Array(WINDOW * WINDOW);
  const ringSize = new Float64Array(RINGS);
  for (let y = 0; y < WINDOW; y++) {
    const ly = y < WINDOW / 2 ? y : y - WINDOW;
    for (let x = 0; x < WINDOW; x++) {
      const lx = x < WINDOW / 2 ? x : x - WINDOW;
      const ring = Math.min(RINGS - 1, Math.round(Math.hypot(lx, ly)));
      ringOf[y * WINDOW + x] = ring;
      ringSize[ring] = (ringSize[ring] as number) + 1;
    }
  }
  return { ringOf, ringSize };
})();

/** The autocorrelation as z-scores against lags of the same length; indexed by wrapped lag. */
export class LagScores {
  readonly z: Float64Array;

  constructor(acf: Float64Array) {
    // The host image's autocorrelation falls off with the lag: judging each lag against its own
    // ring keeps short periods from looking like lattices merely because they are short.
    const rings = RINGS;
    const sum = new Float64Array(rings);
    const sumSq = new Float64Array(rings);
    for (let i = 0; i < ringOf.length; i++) {
      const ring = ringOf[i] as number;
      const v = acf[i] as number;
      sum[ring] = (sum[ring] as number) + v;
      sumSq[ring] = (sumSq[ring] as number) + v * v;
    }
    const mean = new Float64Array(rings);
    const std = new Float64Array(rings);
    for (let ring = 1; ring < rings; ring++) {
      // Three neighbouring rings pooled, so that small rings have enough samples.
      let s = 0;
      let q = 0;
      let c = 0;
      for (let k = Math.max(1, ring - 1); k <= Math.min(rings - 1, ring + 1); k++) {
        s += sum[k] as number;
        q += sumSq[k] as number;
        c += ringSize[k] as number;
      }
      mean[ring] = s / c;
      std[ring] = Math.sqrt(Math.max(q / c - (s / c) ** 2, 1e-30));
    }
    this.z = new Float64Array(WINDOW * WINDOW);
    for (let i = 0; i < this.z.length; i++) {
      const ring = ringOf[i] as number;
      this.z[i] =
        ring === 0 ? 0 : ((acf[i] as number) - (mean[ring] as number)) / (std[ring] as number);
    }
  }

  at(x: number, y: number): number {
    return this.z[(y & MASK) * WINDOW + (x & MASK)] as number;
  }

  interpolated(x: number, y: number): number {
    const x0 = Math.floor(x);
    const y0 = Math.floor(y);
    const fx = x - x0;
    const fy = y - y0;
    return (
      (1 - fy) * ((1 - fx) * this.at(x0, y0) + fx * this.at(x0 + 1, y0)) +
      fy * ((1 - fx) * this.at(x0, y0 + 1) + fx * this.at(x0 + 1, y0 + 1))
    );
  }

  isLocalMax(x: number, y: number): boolean {
    const v = this.at(x, y);
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if ((dx !== 0 || dy !== 0) && this.at(x + dx, y + dy) > v) return false;
      }
    }
    return true;
  }
}

/**
 * Power spectrum of the centred, tapered window, divided by its local mean in the frequency
 * domain, so the host image's uneven spectrum (falling with frequency, stronger along its dominant
 * edge directions) does not drown the mark's evenly spread energy.
 */
export function whitenedSpectrum(
  residual: Float32Array,
  width: number,
  height: number,
): Float64Array {
  const n = WINDOW;
  const re = new Float64Array(n * n);
  const im = new Float64Array(n * n);
  const x0 = Math.floor((width - n) / 2);
  const y0 = Math.floor((height - n) / 2);
  const validW = Math.min(width, n);
  const validH = Math.min(height, n);
  const taper = (i: number, size: number) => {
    const d = Math.min(i, size - 1 - i);
    return d >= TAPER ? 1 : 0.5 - 0.5 * Math.cos((Math.PI * (d + 0.5)) / TAPER);
  };
  const columnWeight = new Float64Array(n);
  for (let x = 0; x < n; x++) {
    const sx = x + x0;
    columnWeight[x] = sx < 0 || sx >= width ? 0 : taper(sx - Math.max(0, x0), validW);
  }
  for (let y = 0; y < n; y++) {
    const sy = y + y0;
    if (sy < 0 || sy >= height) continue;
    const wy = taper(sy - Math.max(0, y0), validH);
    const row = sy * width + x0;
    for (let x = 0; x < n; x++) {
      const w = columnWeight[x] as number;
      if (w > 0) re[y * n + x] = (residual[row + x] as number) * wy * w;
    }
  }
  // Rows the window does not reach stay zero (a window shorter than WINDOW is padded).
  realFft2d(re, im, n, n, Math.max(0, -y0), Math.min(n, height - y0));
  for (let i = 0; i < n * n; i++) re[i] = (re[i] as number) ** 2 + (im[i] as number) ** 2;
  const local = circularBoxMean(re, n, WHITENING_RADIUS);
  for (let i = 0; i < n * n; i++) {
    const mean = local[i] as number;
    re[i] = mean > 0 ? (re[i] as number) / mean : 0;
  }
  return re;
}

/**
 * Circular autocorrelations of the window under two band weightings: the inverse transforms of
 * the two band-weighted spectra. Both spectra are real and even (a power spectrum times weights of
 * |f|), so their transforms are real: one complex inverse FFT of `first + i * second` gives the
 * first in its real part and the second in its imaginary part, at the cost of one transform.
 */
export function autocorrelations(
  spectrum: Float64Array,
  [first, second]: readonly [Float64Array, Float64Array],
): [Float64Array, Float64Array] {
  const n = WINDOW;
  const half = n / 2 + 1;
  const re = new Float64Array(n * n);
  const im = new Float64Array(n * n);
  for (let y = 0; y < n; y++) {
    const fy = y < n / 2 ? y : n - y;
    for (let x = 0; x < n; x++) {
      const fx = x < n / 2 ? x : n - x;
      const i = y * n + x;
      const power = spectrum[i] as number;
      re[i] = power * (first[fy * half + fx] as number);
      im[i] = power * (second[fy * half + fx] as number);
    }
  }
  evenInverseFft2d(re, im, n, n);
  return [re, im];
}

/**
 * Weight of each frequency in the whitened spectrum (a raised-cosine low-pass in cycles per pixel,
 * without the lowest frequencies): the mark has next to no energy above ~1.4 / chip cycles per
 * pixel, where the whitened spectrum is noise only. Two bands cover chips of ~2 detection pixels
 * (large originals) and ~4-5 (small originals, whose chips never go below 4.4 pixels).
 */
function bandWeights(pass: number, stop: number): Float64Array {
  const half = WINDOW / 2 + 1;
  const weights = new Float64Array(half * half);
  for (let fy = 0; fy < half; fy++) {
    for (let fx = 0; fx < half; fx++) {
      const f = Math.hypot(fx, fy) / WINDOW;
      weights[fy * half + fx] =
        fx * fx + fy * fy < 4 || f >= stop
          ? 0
          : f <= pass
            ? 1
            : 0.5 + 0.5 * Math.cos((Math.PI * (f - pass)) / (stop - pass));
    }
  }
  return weights;
}

export const BANDS: readonly [Float64Array, Float64Array] = [
  bandWeights(0.25, 0.4),
  bandWeights(0.12, 0.2),
];

/** Mean over a (2r+1)^2 box with wrap-around (the spectrum is periodic); needs r < n. */
function circularBoxMean(src: Float64Array, n: number, r: number): Float64Array {
  const tmp = new Float64Array(n * n);
  const out = new Float64Array(n * n);
  const norm = 1 / (2 * r + 1);
  const wrap = (i: number) => (i < 0 ? i + n : i >= n ? i - n : i);
  for (let y = 0; y < n; y++) {
    const row = y * n;
    let sum = 0;
    for (let k = -r; k <= r; k++) sum += src[row + wrap(k)] as number;
    for (let x = 0; x < n; x++) {
      tmp[row + x] = sum * norm;
      sum += (src[row + wrap(x + r + 1)] as number) - (src[row + wrap(x - r)] as number);
    }
  }
  // Vertical pass row by row with one running sum per column, so memory is read in order.
  const sums = new Float64Array(n);
  for (let k = -r; k <= r; k++) {
    const row = wrap(k) * n;
    for (let x = 0; x < n; x++) sums[x] = (sums[x] as number) + (tmp[row + x] as number);
  }
  for (let y = 0; y < n; y++) {
    const row = y * n;
    const add = wrap(y + r + 1) * n;
    const drop = wrap(y - r) * n;
    for (let x = 0; x < n; x++) {
      const sum = sums[x] as number;
      out[row + x] = sum * norm;
      sums[x] = sum + (tmp[add + x] as number) - (tmp[drop + x] as number);
    }
  }
  return out;
}
