// Synchronisation: the mark repeats with the period of its tile, so the autocorrelation of the
// image's (whitened) fine structure has peaks on the tile's lattice whatever was done to the
// image. The lattice's two basis vectors give the scale, rotation and any shear the image went
// through; its phase (the translation) is found later by correlating the folded tile with the
// pilot chips. The autocorrelation comes from autocorrelation.ts.
import { autocorrelations, BANDS, LagScores, WINDOW, whitenedSpectrum } from './autocorrelation.ts';

/** Range of tile periods searched, in detection pixels (nominal period: 64). */
const MIN_PERIOD = 36;
const MAX_PERIOD = 200;
/** Lattice points farther than this are outside the reliable part of the autocorrelation. */
const MAX_LAG = WINDOW / 2 - 4;
/** Peaks tried as a lattice's first basis vector, and hypotheses refined. */
const FIRST_VECTOR_CANDIDATES = 40;
const REFINED_CANDIDATES = 6;
/**
 * How far the second basis vector may stray from the first turned by 90 degrees (relative). The
 * mark's lattice is square as embedded; an aspect-ratio change (x0.8 or x1.25 on one axis) or a
 * perspective view makes it a general parallelogram, so a quarter of skew or more is allowed.
 */
const MAX_SKEW = 0.4;
/**
 * Second basis vectors tried with each first one besides the first turned by 90 degrees: the
 * strongest peaks at 55-125 degrees from it and 0.6-1.65 times its length, which covers a
 * square lattice after any non-uniform scaling up to 1.25x and moderate perspective.
 */
const SECOND_VECTOR_CANDIDATES = 40;
const MIN_ANGLE_COS = Math.cos((55 * Math.PI) / 180);
const LENGTH_RATIO = [0.6, 1.65] as const;
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

/** Candidate tile lattices of a whitened residual image, best first (at most `count`). */
export function estimateLattices(
  residual: Float32Array,
  width: number,
  height: number,
  count: number,
): Lattice[] {
  const spectrum = whitenedSpectrum(residual, width, height);
  const lattices = autocorrelations(spectrum, BANDS).flatMap((correlation) =>
    latticesIn(new LagScores(correlation)),
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
  // Every strong peak is tried as one basis vector, with as the other it turned by 90 degrees (a
  // square lattice) and every strong peak roughly across from it (a stretched or sheared one);
  // the hypotheses whose lattice points are peaks too are refined.
  const peaks = localMaxima(lags, Math.max(FIRST_VECTOR_CANDIDATES, SECOND_VECTOR_CANDIDATES));
  const hypotheses = peaks
    .slice(0, FIRST_VECTOR_CANDIDATES)
    .flatMap(([x, y]) =>
      [{ b1x: x, b1y: y, b2x: -y, b2y: x }, ...parallelograms(x, y, peaks)].map((basis) => ({
        basis,
        score: latticeScore(lags, basis, true),
      })),
    )
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
    basis = polishLattice(lags, basis);
    score = latticeScore(lags, basis, false);
    if (isSquareish(basis)) lattices.push({ ...basis, score });
  }
  return lattices;
}

/** Bases (b1, p) with p one of the strongest peaks, or its opposite, across from b1 = (x, y). */
function parallelograms(
  x: number,
  y: number,
  peaks: ReadonlyArray<readonly [number, number]>,
): Basis[] {
  const length = Math.hypot(x, y);
  const bases: Basis[] = [];
  for (const [px, py] of peaks.slice(0, SECOND_VECTOR_CANDIDATES)) {
    const ratio = Math.hypot(px, py) / length;
    if (ratio < LENGTH_RATIO[0] || ratio > LENGTH_RATIO[1]) continue;
    const cos = (x * px + y * py) / (length * length * ratio);
    if (Math.abs(cos) > MIN_ANGLE_COS) continue;
    // Oriented like the square hypothesis (b2 counter-clockwise of b1), so the symmetries the
    // alignment tries mean the same for both.
    const sign = x * py - y * px > 0 ? 1 : -1;
    bases.push({ b1x: x, b1y: y, b2x: sign * px, b2y: sign * py });
  }
  return bases;
}

/**
 * The `count` strongest local maxima in the period annulus (one half-plane), strongest first (ties
 * in scan order). A window has thousands; only the strongest are kept, by insertion.
 */
function localMaxima(lags: LagScores, count: number): Array<readonly [number, number]> {
  const peaks: Array<{ x: number; y: number; z: number }> = [];
  for (let y = 0; y <= MAX_PERIOD; y++) {
    for (let x = -MAX_PERIOD; x <= MAX_PERIOD; x++) {
      if (y === 0 && x <= 0) continue;
      const r2 = x * x + y * y;
      if (r2 < MIN_PERIOD * MIN_PERIOD || r2 > MAX_PERIOD * MAX_PERIOD) continue;
      const z = lags.at(x, y);
      const weakest = peaks[peaks.length - 1];
      if (peaks.length === count && weakest !== undefined && z <= weakest.z) continue;
      if (!lags.isLocalMax(x, y)) continue;
      let at = peaks.length;
      while (at > 0 && (peaks[at - 1] as { z: number }).z < z) at--;
      peaks.splice(at, 0, { x, y, z });
      if (peaks.length > count) peaks.pop();
    }
  }
  return peaks.map((p) => [p.x, p.y] as const);
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
 * Final adjustment of the basis by coordinate ascent on the lattice score (interpolated at the
 * exact lattice points): peak picking can lock onto a nearby peak of some other periodic
 * structure, while the score weighs all lattice points together. A tenth of a pixel per period
 * matters, since folding adds it up over every period of the image.
 */
function polishLattice(lags: LagScores, initial: Basis): Basis {
  let basis = initial;
  let score = latticeScore(lags, basis, false);
  const keys = ['b1x', 'b1y', 'b2x', 'b2y'] as const;
  for (let step = 0.5; step >= 0.03; step /= 2) {
    let improved = true;
    for (let round = 0; improved && round < 8; round++) {
      improved = false;
      for (const key of keys) {
        for (const sign of [1, -1]) {
          const candidate = { ...basis, [key]: basis[key] + sign * step };
          const candidateScore = latticeScore(lags, candidate, false);
          if (candidateScore > score) {
            basis = candidate;
            score = candidateScore;
            improved = true;
          }
        }
      }
    }
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

/**
 * Same lattice when b's basis vectors are (close to) integer combinations of a's: within
 * `tolerance` of a tile (8 %: near-duplicates of one search).
 */
export function sameLattice(a: Basis, b: Basis, tolerance = 0.08): boolean {
  return [latticeCoordinates(a, b.b1x, b.b1y), latticeCoordinates(a, b.b2x, b.b2y)].every((c) =>
    c.every((v) => Math.abs(v - Math.round(v)) < tolerance),
  );
}

/**
 * Whether two lattices fold a window alike: each lies on the other within 0.5 % of a tile, which
 * over ten tiles drifts by a sixth of a chip. (`sameLattice` alone also holds for a coarser
 * lattice on a finer one, e.g. the true tile lattice on a half-period one, and for periods 8 %
 * apart, which fold ten tiles into noise.)
 */
export function equalLattices(a: Basis, b: Basis): boolean {
  return sameLattice(a, b, 0.005) && sameLattice(b, a, 0.005);
}

/** The upright lattice of tile periods `x` and `y` (pixels): a copy that was neither turned nor sheared. */
export function uprightLattice(x: number, y = x, score = 0): Lattice {
  return { b1x: x, b1y: 0, b2x: 0, b2y: y, score };
}
