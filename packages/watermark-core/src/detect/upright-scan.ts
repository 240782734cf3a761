// A scan for the lattice of a small crop that was not rescaled: upright and square, of a tile
// period the autocorrelation cannot confirm from the two or three tiles the crop holds. Such a
// crop keeps the original's chips, whose size the detector does not know (it follows the original's
// size), so the scan tries every period a crop keeping 8-100 % of a larger original would have and
// scores each by the pilot correlation of the window folded at that period, a matched filter far
// more sensitive than the blind autocorrelation. Only the best few periods go on to be decoded
// (window-detection.ts counts them among the window's attempts). The same matched filter scans
// the rotations of a small original's own period (a copy turned a few degrees and cropped).

import { DETECT_AREA, MIN_CHIP_PIXELS } from '../code/mark-geometry.ts';
import { TILE } from '../code/mark-layout.ts';
import { halve } from '../image/filters.ts';
import { type Lattice, uprightLattice } from './sync-lattice.ts';
import { alignTile } from './tile-align.ts';
import { foldTile } from './tile-fold.ts';

/**
 * Shortest period scanned on a level smaller than the file (detection pixels). A crop of an image
 * larger than the detection size that keeps a share f of it has period 64 / sqrt(f) there: 64 is
 * the uncropped image (a busy texture can hide even a nine-tile lattice from the autocorrelation).
 */
const MIN_SCALED_PERIOD = 64;
/** Longest period: a crop keeping 8 % (64 / sqrt(0.08)), or less than 1.3 tiles in the window. */
const MAX_PERIOD = 226;
const MIN_TILES = 1.3;
/**
 * Period steps: consecutive periods differ by period / (STEP_SPAN x window side), so a window
 * folded between two steps drifts by at most 16 / STEP_SPAN chip at its edges (0.53: the peak
 * loses a little and stays far above noise, README.md#measurements-behind-the-constants); the best
 * peaks are refined by half a step.
 */
const STEP_SPAN = 30;
/**
 * Chip size (window pixels) from which the scan folds a 2x2-averaged residual, 4x cheaper: chips
 * of 2 pixels or more still score well above noise (README.md#measurements-behind-the-constants).
 */
const DECIMATE_FROM_CHIP = 2;
/** Periods closer than this (relative) are one peak of the scan. */
const SAME_PEAK = 0.03;

/**
 * One window's residual (radius-1 whitening) as the scans fold it: scores a lattice by the upright
 * pilot correlation of its fold, from the 2x2-averaged residual (halved once, on first use) when
 * its chips are DECIMATE_FROM_CHIP pixels or more.
 */
export class PilotScorer {
  private half: Float32Array | null = null;
  private readonly residual: Float32Array;
  readonly width: number;
  readonly height: number;

  constructor(residual: Float32Array, width: number, height: number) {
    this.residual = residual;
    this.width = width;
    this.height = height;
  }

  /** The factor a lattice of `chip`-pixel chips is folded at (1 or 2) and that fold's size. */
  foldedAt(chip: number): { factor: 1 | 2; width: number; height: number } {
    return chip >= DECIMATE_FROM_CHIP
      ? { factor: 2, width: this.width >> 1, height: this.height >> 1 }
      : { factor: 1, width: this.width, height: this.height };
  }

  /** Pilot z-score of `lattice` (window pixels; its chips' size `chip`), upright orientation. */
  z(lattice: Lattice, chip: number): number {
    const { factor, width, height } = this.foldedAt(chip);
    const folded =
      factor === 1
        ? foldTile(this.residual, width, height, lattice)
        : foldTile(this.halved(), width, height, scaled(lattice, 0.5));
    return alignTile(folded, 1, [0])[0]?.z ?? 0;
  }

  private halved(): Float32Array {
    this.half ??= halve(this.residual, this.width, this.height);
    return this.half;
  }
}

const scaled = (lattice: Lattice, by: number): Lattice => ({
  b1x: lattice.b1x * by,
  b1y: lattice.b1y * by,
  b2x: lattice.b2x * by,
  b2y: lattice.b2y * by,
  score: lattice.score,
});

/**
 * The `count` best upright square lattices of the scorer's window among the periods a not-rescaled
 * small crop may have, by pilot z-score (the upright orientation only).
 */
export function uprightLattices(scorer: PilotScorer, scale: number, count: number): Lattice[] {
  const { width, height } = scorer;
  const side = Math.max(width, height);
  // On a level at the file's size, a crop of a small original has chips of MIN_CHIP_PIXELS (that
  // lattice is tried apart): start above it.
  const minPeriod =
    scale > 1 ? Math.max(MIN_SCALED_PERIOD, (TILE * MIN_CHIP_PIXELS) / scale) : TILE * 4.42;
  const maxPeriod = Math.min(
    MAX_PERIOD * Math.sqrt(Math.min(1, (width * height) / DETECT_AREA)),
    side / MIN_TILES,
  );
  if (minPeriod > maxPeriod) return [];
  const pilotZ = (period: number) => scorer.z(uprightLattice(period), period / TILE);
  // Coarse steps first, then each of the best peaks refined half a step either way.
  const scored: ScanPoint[] = [];
  const step = (period: number) => period / (STEP_SPAN * side);
  for (let period = minPeriod; period <= maxPeriod; period *= 1 + step(period)) {
    scored.push({ at: period, z: pilotZ(period) });
  }
  const peaks = bestPeaks(
    scored,
    count,
    (a, b) => Math.abs(a / b - 1) < SAME_PEAK,
    (period, sign) => period * (1 + (sign * step(period)) / 2),
    pilotZ,
  );
  return peaks.map(({ at, z }) => uprightLattice(at, at, z));
}

/**
 * Rotations a copy at its own scale is scanned over, degrees either way. Scored in the upright
 * orientation only, as the period scan is: a copy also turned by quarter turns or mirrored is
 * left to the autocorrelation.
 */
const MAX_ROTATION = 12;
/**
 * Angle steps: a window folded between two steps drifts by at most this many chips at its
 * corners, as the period scan's steps do (0.53); the best angles are refined by half a step.
 */
const ROTATION_DRIFT = 0.5;
/** Angles closer than this many steps are one peak of the rotation scan. */
const SAME_ANGLE_STEPS = 3;

/**
 * The `count` best lattices of `period` (window pixels, square) turned by up to MAX_ROTATION
 * degrees either way, by pilot z-score: a copy rotated at its own scale (a small original turned
 * a few degrees and cropped) keeps the period it was marked with, and a busy texture can hide its
 * turned lattice from the autocorrelation while the pilots still stand out at the true angle
 * (README.md#design, where it looks).
 */
export function rotatedLattices(scorer: PilotScorer, period: number, count: number): Lattice[] {
  const chip = period / TILE;
  const turned = (degrees: number, z = 0): Lattice => {
    const a = (degrees * Math.PI) / 180;
    const c = period * Math.cos(a);
    const s = period * Math.sin(a);
    return { b1x: c, b1y: s, b2x: -s, b2y: c, score: z };
  };
  const pilotZ = (degrees: number) => scorer.z(turned(degrees), chip);
  // Drift at the corners of the fold, in chips, per radian: half its diagonal over the chip size.
  const { factor, width, height } = scorer.foldedAt(chip);
  const step = (ROTATION_DRIFT * (chip / factor) * 2) / Math.hypot(width, height) / (Math.PI / 180);
  const scored: ScanPoint[] = [];
  for (let degrees = -MAX_ROTATION; degrees <= MAX_ROTATION; degrees += step) {
    // The upright lattice is the unscaled lattices' own, tried apart.
    if (Math.abs(degrees) >= step / 2) scored.push({ at: degrees, z: pilotZ(degrees) });
  }
  const peaks = bestPeaks(
    scored,
    count,
    (a, b) => Math.abs(a - b) < SAME_ANGLE_STEPS * step,
    (degrees, sign) => degrees + (sign * step) / 2,
    pilotZ,
  );
  return peaks.map(({ at, z }) => turned(at, z));
}

/** One point of a scan over one parameter (a period or an angle) and its pilot z-score. */
interface ScanPoint {
  readonly at: number;
  readonly z: number;
}

/**
 * The `count` best peaks of a scan, best first: points by score, each skipped when `same` as a
 * peak already kept, else refined half a step either way (`near`) and kept at its best.
 */
function bestPeaks(
  scored: readonly ScanPoint[],
  count: number,
  same: (a: number, b: number) => boolean,
  near: (at: number, sign: -1 | 1) => number,
  score: (at: number) => number,
): ScanPoint[] {
  const peaks: ScanPoint[] = [];
  for (const candidate of [...scored].sort((a, b) => b.z - a.z)) {
    if (peaks.length >= count) break;
    if (peaks.some((peak) => same(peak.at, candidate.at))) continue;
    let best = candidate;
    for (const sign of [-1, 1] as const) {
      const at = near(candidate.at, sign);
      const z = score(at);
      if (z > best.z) best = { at, z };
    }
    peaks.push(best);
  }
  return peaks.sort((a, b) => b.z - a.z);
}
