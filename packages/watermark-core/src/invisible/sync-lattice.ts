// Synchronisation: the mark repeats with the period of its tile, so the autocorrelation of the
// image's (whitened) fine structure has peaks on the tile's lattice whatever was done to the
// image. The lattice's two basis vectors give the scale, rotation and any shear the image went
// through; its phase (the translation) is found later by correlating the folded tile with the
// pilot chips. The autocorrelation is computed through the power spectrum of a 512x512 window.
import { fft2d } from './fft.ts';

/** Side of the analysis window (pixels of the detection image). */
const WINDOW = 512;
const MASK = WINDOW - 1;
/** Range of tile periods searched, in detection pixels (nominal period: 64). */
const MIN_PERIOD = 36;
const MAX_PERIOD = 200;
/** Lattice points farther than this are outside the reliable part of the autocorrelation. */
const MAX_LAG = WINDOW / 2 - 4;
/** Width of the cosine taper at the window's edges, so the crop's borders add no structure. */
const TAPER = 24;
/** Half-width (frequency bins) of the neighbourhood the power spectrum is whitened by. */
const WHITENING_RADIUS = 4;
/** Peaks tried as a lattice's first basis vector, and hypotheses refined. */
const FIRST_VECTOR_CANDIDATES = 40;
const REFINED_CANDIDATES = 6;
/**
 * How far the second basis vector may stray from the first turned by 90 degrees (relative): the
 * mark's lattice is square, and host-image textures that repeat are rarely square as well.
 */
const MAX_SKEW = 0.15;
/** Expected maximum of nine independent standard normal values. */
const MAX_OF_NINE_BIAS = 1.485;

export interface Lattice {
  /** First basis vector (one tile period), in detection pixels. */
  readonly b1x: number;
  readonly b1y: number;
  /** Second basis vector, roughly b1 turned by 90 degrees. */
  readonly b2x: number;
  readonly b2y: number;
  /** Combined z-score of the autocorrelation at the lattice points: how clearly it was seen. */
  readonly score: number;
}

type Basis = Omit<Lattice, 'score'>;

const LATTICE_POINTS: ReadonlyArray<readonly [number, number]> = [
  [1, 0],
  [0, 1],
  [1, 1],
  [1, -1],
  [2, 0],
  [0, 2],
  [2, 1],
  [1, 2],
  [2, -1],
  [1, -2],
  [2, 2],
  [2, -2],
  [3, 0],
  [0, 3],
];

/** The autocorrelation as z-scores against lags of the same length; indexed by wrapped lag. */
class LagScores {
  readonly z: Float64Array;

  constructor(acf: Float64Array) {
    // The host image's autocorrelation falls off with the lag: judging each lag against its own
    // ring keeps short periods from looking like lattices merely because they are short.
    const rings = WINDOW / 2 + 2;
    const ringOf = new Uint16Array(WINDOW * WINDOW);
    const sum = new Float64Array(rings);
    const sumSq = new Float64Array(rings);
    const count = new Float64Array(rings);
    for (let y = 0; y < WINDOW; y++) {
      const ly = y < WINDOW / 2 ? y : y - WINDOW;
      for (let x = 0; x < WINDOW; x++) {
        const lx = x < WINDOW / 2 ? x : x - WINDOW;
        const ring = Math.min(rings - 1, Math.round(Math.hypot(lx, ly)));
        const i = y * WINDOW + x;
        ringOf[i] = ring;
        const v = acf[i] as number;
        sum[ring] = (sum[ring] as number) + v;
        sumSq[ring] = (sumSq[ring] as number) + v * v;
        count[ring] = (count[ring] as number) + 1;
      }
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
        c += count[k] as number;
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

/** Candidate tile lattices of a whitened residual image, best first (at most `count`). */
export function estimateLattices(
  residual: Float32Array,
  width: number,
  height: number,
  count: number,
): Lattice[] {
  const spectrum = whitenedSpectrum(residual, width, height);
  const lattices = BANDS.flatMap((band) =>
    latticesIn(new LagScores(autocorrelation(spectrum, band))),
  );
  lattices.sort((a, b) => b.score - a.score);
  const distinct: Lattice[] = [];
  for (const lattice of lattices) {
    if (!distinct.some((d) => sameLattice(d, lattice))) distinct.push(lattice);
    if (distinct.length === count) break;
  }
  return distinct;
}

function latticesIn(lags: LagScores): Lattice[] {
  // Every strong peak is tried as one basis vector of a square lattice (the other being it turned
  // by 90 degrees); the hypotheses whose lattice points are peaks too are refined.
  const hypotheses = localMaxima(lags)
    .slice(0, FIRST_VECTOR_CANDIDATES)
    .map(([x, y]) => {
      const basis = { b1x: x, b1y: y, b2x: -y, b2y: x };
      return { basis, score: latticeScore(lags, basis, true) };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, REFINED_CANDIDATES);
  const lattices: Lattice[] = [];
  for (const hypothesis of hypotheses) {
    let basis = refineLattice(lags, hypothesis.basis);
    let score = latticeScore(lags, basis, false);
    // The hypothesis may span a coarser sub-lattice (the tile's diagonal, or two tiles): move to
    // the finer lattice whenever its extra points are peaks too.
    for (let step = 0; step < 3; step++) {
      const finer = finerLattices(basis).find(
        (candidate) => latticeScore(lags, candidate, false, basis) >= Math.max(2, 0.5 * score),
      );
      if (finer === undefined) break;
      basis = refineLattice(lags, finer);
      score = latticeScore(lags, basis, false);
    }
    if (isSquareish(basis)) lattices.push({ ...basis, score });
  }
  return lattices;
}

/**
 * Power spectrum of the centred, tapered window, divided by its local mean in the frequency
 * domain, so the host image's uneven spectrum (falling with frequency, stronger along its dominant
 * edge directions) does not drown the mark's evenly spread energy.
 */
function whitenedSpectrum(residual: Float32Array, width: number, height: number): Float64Array {
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
  fft2d(re, im, n, n);
  for (let i = 0; i < n * n; i++) re[i] = (re[i] as number) ** 2 + (im[i] as number) ** 2;
  const local = circularBoxMean(re, n, WHITENING_RADIUS);
  for (let i = 0; i < n * n; i++) {
    const mean = local[i] as number;
    re[i] = mean > 0 ? (re[i] as number) / mean : 0;
  }
  return re;
}

/** Circular autocorrelation of the window: the inverse transform of the band-weighted spectrum. */
function autocorrelation(spectrum: Float64Array, band: Float64Array): Float64Array {
  const n = WINDOW;
  const half = n / 2 + 1;
  const re = new Float64Array(n * n);
  const im = new Float64Array(n * n);
  for (let y = 0; y < n; y++) {
    const fy = y < n / 2 ? y : n - y;
    for (let x = 0; x < n; x++) {
      const fx = x < n / 2 ? x : n - x;
      const i = y * n + x;
      re[i] = (spectrum[i] as number) * (band[fy * half + fx] as number);
    }
  }
  fft2d(re, im, n, n, true);
  return re;
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

const BANDS = [bandWeights(0.25, 0.4), bandWeights(0.12, 0.2)];

/** Mean over a (2r+1)^2 box with wrap-around (the spectrum is periodic). */
function circularBoxMean(src: Float64Array, n: number, r: number): Float64Array {
  const tmp = new Float64Array(n * n);
  const out = new Float64Array(n * n);
  const norm = 1 / (2 * r + 1);
  for (let y = 0; y < n; y++) {
    const row = y * n;
    let sum = 0;
    for (let k = -r; k <= r; k++) sum += src[row + ((k + n) % n)] as number;
    for (let x = 0; x < n; x++) {
      tmp[row + x] = sum * norm;
      sum += (src[row + ((x + r + 1) % n)] as number) - (src[row + ((x - r + n) % n)] as number);
    }
  }
  for (let x = 0; x < n; x++) {
    let sum = 0;
    for (let k = -r; k <= r; k++) sum += tmp[((k + n) % n) * n + x] as number;
    for (let y = 0; y < n; y++) {
      out[y * n + x] = sum * norm;
      sum +=
        (tmp[((y + r + 1) % n) * n + x] as number) - (tmp[((y - r + n) % n) * n + x] as number);
    }
  }
  return out;
}

/** Local maxima in the period annulus (one half-plane), strongest first. */
function localMaxima(lags: LagScores): Array<readonly [number, number]> {
  const peaks: Array<{ x: number; y: number; z: number }> = [];
  for (let y = 0; y <= MAX_PERIOD; y++) {
    for (let x = -MAX_PERIOD; x <= MAX_PERIOD; x++) {
      if (y === 0 && x <= 0) continue;
      const r2 = x * x + y * y;
      if (r2 < MIN_PERIOD * MIN_PERIOD || r2 > MAX_PERIOD * MAX_PERIOD) continue;
      if (lags.isLocalMax(x, y)) peaks.push({ x, y, z: lags.at(x, y) });
    }
  }
  return peaks.sort((a, b) => b.z - a.z).map((p) => [p.x, p.y] as const);
}

function isSquareish(basis: Basis): boolean {
  const l1 = Math.hypot(basis.b1x, basis.b1y);
  return Math.hypot(basis.b2x + basis.b1y, basis.b2y - basis.b1x) <= MAX_SKEW * l1;
}

/** The square lattices containing `basis`'s lattice with index 2 (diagonal) and 4 (half period). */
function finerLattices(basis: Basis): Basis[] {
  const { b1x, b1y, b2x, b2y } = basis;
  const candidates = [
    { b1x: (b1x + b2x) / 2, b1y: (b1y + b2y) / 2, b2x: (b1x - b2x) / 2, b2y: (b1y - b2y) / 2 },
    { b1x: b1x / 2, b1y: b1y / 2, b2x: b2x / 2, b2y: b2y / 2 },
  ];
  return candidates.filter(
    (c) => Math.min(Math.hypot(c.b1x, c.b1y), Math.hypot(c.b2x, c.b2y)) >= MIN_PERIOD,
  );
}

/** Sub-pixel position of the local maximum nearest to (x, y), and its z-score. */
function subpixelPeak(lags: LagScores, x: number, y: number): { x: number; y: number; z: number } {
  let px = Math.round(x);
  let py = Math.round(y);
  for (let step = 0; step < 3; step++) {
    let bx = px;
    let by = py;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if (lags.at(px + dx, py + dy) > lags.at(bx, by)) {
          bx = px + dx;
          by = py + dy;
        }
      }
    }
    if (bx === px && by === py) break;
    px = bx;
    py = by;
  }
  const c = lags.at(px, py);
  const offset = (l: number, r: number) => {
    const d = l - 2 * c + r;
    return d < 0 ? Math.max(-0.5, Math.min(0.5, (l - r) / (2 * d))) : 0;
  };
  return {
    x: px + offset(lags.at(px - 1, py), lags.at(px + 1, py)),
    y: py + offset(lags.at(px, py - 1), lags.at(px, py + 1)),
    z: c,
  };
}

/** Least-squares fit of both basis vectors to the sub-pixel peaks near the predicted lattice points. */
function refineLattice(lags: LagScores, initial: Basis): Basis {
  let basis = initial;
  for (let pass = 0; pass < 2; pass++) {
    // Normal equations of m = n1 * b1 + n2 * b2, weighted by peak strength, solved per coordinate.
    let s11 = 0;
    let s12 = 0;
    let s22 = 0;
    let r1x = 0;
    let r2x = 0;
    let r1y = 0;
    let r2y = 0;
    for (const [n1, n2] of LATTICE_POINTS) {
      const px = n1 * basis.b1x + n2 * basis.b2x;
      const py = n1 * basis.b1y + n2 * basis.b2y;
      if (Math.hypot(px, py) > MAX_LAG) continue;
      const peak = subpixelPeak(lags, px, py);
      if (peak.z <= 1 || Math.hypot(peak.x - px, peak.y - py) > 3) continue;
      const w = peak.z;
      s11 += w * n1 * n1;
      s12 += w * n1 * n2;
      s22 += w * n2 * n2;
      r1x += w * n1 * peak.x;
      r2x += w * n2 * peak.x;
      r1y += w * n1 * peak.y;
      r2y += w * n2 * peak.y;
    }
    const det = s11 * s22 - s12 * s12;
    if (!(Math.abs(det) > 1e-9)) break;
    basis = {
      b1x: (s22 * r1x - s12 * r2x) / det,
      b2x: (s11 * r2x - s12 * r1x) / det,
      b1y: (s22 * r1y - s12 * r2y) / det,
      b2y: (s11 * r2y - s12 * r1y) / det,
    };
  }
  return basis;
}

/**
 * Combined z-score of the autocorrelation at the lattice's small multiples; with `coarse`, only at
 * the points that are not also points of the coarse lattice. A `rough` basis (whole-pixel peak
 * positions) is scored by the best of the 3x3 lags around each point, less that maximum's bias.
 */
function latticeScore(lags: LagScores, basis: Basis, rough: boolean, coarse?: Basis): number {
  let sum = 0;
  let count = 0;
  for (const [n1, n2] of LATTICE_POINTS) {
    const px = n1 * basis.b1x + n2 * basis.b2x;
    const py = n1 * basis.b1y + n2 * basis.b2y;
    if (Math.hypot(px, py) > MAX_LAG) continue;
    if (coarse !== undefined && isLatticePoint(coarse, px, py)) continue;
    if (rough) {
      let best = -Infinity;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++)
          best = Math.max(best, lags.at(Math.round(px) + dx, Math.round(py) + dy));
      }
      sum += best - MAX_OF_NINE_BIAS;
    } else {
      sum += lags.interpolated(px, py);
    }
    count++;
  }
  // Under no mark the z-scores are roughly independent N(0,1): their sum over sqrt(count) is too,
  // whatever the number of lattice points inside the window.
  return count > 0 ? sum / Math.sqrt(count) : 0;
}

function latticeCoordinates(basis: Basis, x: number, y: number): [number, number] {
  const det = basis.b1x * basis.b2y - basis.b2x * basis.b1y;
  return [(x * basis.b2y - y * basis.b2x) / det, (basis.b1x * y - basis.b1y * x) / det];
}

function isLatticePoint(basis: Basis, x: number, y: number): boolean {
  return latticeCoordinates(basis, x, y).every((v) => Math.abs(v - Math.round(v)) < 0.1);
}

/** Same lattice when b's basis vectors are (close to) integer combinations of a's. */
function sameLattice(a: Basis, b: Basis): boolean {
  return [latticeCoordinates(a, b.b1x, b.b1y), latticeCoordinates(a, b.b2x, b.b2y)].every((c) =>
    c.every((v) => Math.abs(v - Math.round(v)) < 0.08),
  );
}
