// Detection in one window of one analysis level: whiten, find the tile lattice, fold, align with
// the pilots, read the chips, decode. At most ATTEMPTS_PER_WINDOW alignments are decoded per
// window, each in READOUTS readouts of its chips by a list decoder that checks at most LIST_SIZE
// candidate frames, and at most DEEP_DECODES_PER_IMAGE of them again with DEEP_LIST_SIZE
// (detect.ts counts the windows).

import { decodeFrame, LIST_SIZE } from '../code/frame-code.ts';
import { MIN_CHIP_PIXELS, markGrid, wrapToLattice } from '../code/mark-geometry.ts';
import { TILE } from '../code/mark-layout.ts';
import type { MarkPayload } from '../code/payload.ts';
import type { AnalysisLevel, Window } from './analysis-level.ts';
import { newWindowTrace, type WindowTrace } from './search-trace.ts';
import { equalLattices, estimateLattices, type Lattice, uprightLattice } from './sync-lattice.ts';
import { type Alignment, alignTile, readCodedBits, symmetryMatrix } from './tile-align.ts';
import { FOLD_BINS, foldTile } from './tile-fold.ts';
import { PilotScorer, rotatedLattices, uprightLattices } from './upright-scan.ts';

const LATTICE_CANDIDATES = 4;
/**
 * Widest smoothing the chips are read with. Chips of 3.9 pixels and more (a small original's 4.4,
 * crops kept at their scale) read at least as well at radius 3 as at 4 (figures:
 * README.md#measurements-behind-the-constants), and a level then needs one residual fewer.
 */
const MAX_READ_RADIUS = 3;
/** Lattices the upright scan (a small crop that was not rescaled) adds, best first. */
const SCANNED = 2;
/** Lattices the rotation scan (a small original turned at its own scale) adds. */
const TURNED = 1;
const ALIGNMENTS_PER_LATTICE = 3;
/** Alignments decoded per window at most; with READOUTS, LIST_SIZE and the windows, the bound. */
export const ATTEMPTS_PER_WINDOW = 8;
/**
 * Paths of a deep decode: a frame whose pilots stand out but whose LIST_SIZE best paths hold no
 * valid frame is decoded again with this many (the near misses of small images under strong
 * compression), at about half a dB of chip SNR gained for a few tenths of a second a decode
 * (figures: README.md#measurements-behind-the-constants).
 */
export const DEEP_LIST_SIZE = 1024;
/** Deep decodes an image may spend (detect.ts counts them in the false-detection bound). */
export const DEEP_DECODES_PER_IMAGE = 4;
/**
 * Pilot z-score from which a failed frame earns a deep decode. Unmarked images stay below it, so
 * they rarely pay for one (README.md#design, the false-detection bound).
 */
const DEEP_PILOT_Z = 6;
/**
 * Pilot z-score below which an alignment is not decoded: its pilots do not stand out from an
 * unmarked image's. No frame the evaluation decoded was below it, and most failed decodes were,
 * so it spares most of an unmarked image's decodes (figures:
 * README.md#measurements-behind-the-constants).
 */
const MIN_DECODE_Z = 4;

/**
 * Pilot SNR (chip-equaliser.ts) below which the second readout of a frame is not decoded: frames
 * that decode show their pilots more clearly, while an unmarked image's second readouts stay under
 * it, so it spares an unmarked image nearly every second decode (figures:
 * README.md#measurements-behind-the-constants).
 */
const MIN_SECOND_READOUT_SNR = 0.1;

/** An image's deep decodes left, shared by its windows. */
export class DeepDecodes {
  private left = DEEP_DECODES_PER_IMAGE;

  take(): boolean {
    if (this.left === 0) return false;
    this.left--;
    return true;
  }
}

/**
 * How the copy's mark lies compared with how it was embedded: what the detector had to undo.
 * Distances are in the file's pixels.
 */
export interface MarkGeometry {
  /** Rotation of the copy, degrees clockwise, in (-180, 180]. */
  readonly rotation: number;
  /** The copy is a mirror image. */
  readonly mirrored: boolean;
  /** Length of one tile of the mark (32 chips) along the original x axis. */
  readonly tilePixels: number;
  /** Length of one tile along the original y axis (chips of large images are not quite square). */
  readonly tilePixelsY: number;
  /**
   * Where a corner of the original tile grid lies in the copy, reduced to the tile at the copy's
   * origin (modulo the tile lattice, along the original's axes): a crop of the original moves it.
   */
  readonly gridOriginX: number;
  readonly gridOriginY: number;
}

export interface Detection {
  readonly found: boolean;
  /** The 64-bit payload when found, otherwise null. */
  readonly payload: MarkPayload | null;
  /**
   * How cleanly the payload was received, in [0, 1]: the normalised correlation between the
   * received chips and the decoded codeword. 0 when nothing was found.
   */
  readonly confidence: number;
  /** Present when found. */
  readonly geometry?: MarkGeometry;
}

/**
 * The mark in one window of one analysis level, read from at most ATTEMPTS_PER_WINDOW frames. A
 * found mark's geometry is in the file's pixels.
 *
 * Order: the lattices of a copy that was not rescaled first (one fold each, no lattice search: a
 * copy served at its own size, re-encoded or cropped, keeps them exactly), then the strongest
 * lattice the autocorrelation finds, then every other alignment by pilot strength. On a copy that
 * kept its mark the first attempt decodes and the rest is never computed; the frame code's check
 * makes an early answer as sure as a late one. `trace` records what the window saw.
 */
export function detectInWindow(
  level: AnalysisLevel,
  window: Window,
  deep: DeepDecodes,
  scanUpright = false,
  trace: WindowTrace = newWindowTrace('window'),
): Detection | null {
  const started = performance.now();
  const stage = () => trace.ms.push(performance.now() - started);
  const attempts = new Attempts(level, window, deep, trace);
  const unscaled = unscaledLattices(level, window);
  for (const lattice of unscaled) {
    const found = attempts.decodeBest(lattice);
    trace.unscaledZ = Math.max(trace.unscaledZ, attempts.bestZ(lattice));
    if (found !== null) return attempts.found(found);
  }
  stage();
  const residual = attempts.residual(1);
  const lattices = estimateLattices(residual, window.width, window.height, LATTICE_CANDIDATES);
  const [strongest] = lattices;
  trace.latticeScore = strongest?.score ?? 0;
  stage();
  for (const lattice of unscaled) {
    if (!lattices.some((found) => equalLattices(found, lattice))) lattices.push(lattice);
  }
  if (strongest !== undefined) {
    const found = attempts.decodeBest(strongest);
    trace.strongestZ = attempts.bestZ(strongest);
    if (found !== null) return attempts.found(found);
  }
  stage();
  if (scanUpright) {
    const scorer = new PilotScorer(residual, window.width, window.height);
    const scanned = uprightLattices(scorer, level.scale, SCANNED);
    // A copy turned at its own scale: only a file no larger than a small original (chips of
    // MIN_CHIP_PIXELS, under about 1.3 MP) can be one, since the turn's crop only shrinks it.
    const small = markGrid(level.file.width, level.file.height).chipWidth === MIN_CHIP_PIXELS;
    const native = small ? smallOriginalPeriod(level, window) : null;
    if (native !== null) scanned.push(...rotatedLattices(scorer, native, TURNED));
    for (const lattice of scanned) {
      trace.scanZ = Math.max(trace.scanZ, lattice.score);
      if (!lattices.some((found) => equalLattices(found, lattice))) lattices.push(lattice);
    }
  }
  stage();
  const found = attempts.decodeStrongest(lattices);
  stage();
  return found === null ? null : attempts.found(found);
}

/** One window's candidate frames, each folded once, decoded until ATTEMPTS_PER_WINDOW are spent. */
class Attempts {
  private readonly residuals = new Map<number, Float32Array>();
  private readonly candidates = new Map<Lattice, Candidate[]>();
  private readonly tried = new Set<Candidate>();

  private readonly level: AnalysisLevel;
  private readonly window: Window;
  private readonly deep: DeepDecodes;
  private readonly trace: WindowTrace;

  constructor(level: AnalysisLevel, window: Window, deep: DeepDecodes, trace: WindowTrace) {
    this.level = level;
    this.window = window;
    this.deep = deep;
    this.trace = trace;
  }

  /** The best pilot z-score among `lattice`'s alignments, once folded (0 before). */
  bestZ(lattice: Lattice): number {
    return this.candidates.get(lattice)?.[0]?.alignment.z ?? 0;
  }

  /** A mark found in this window, noted in the trace. */
  found(detection: Detection): Detection {
    this.trace.found = true;
    return detection;
  }

  /**
   * The window's residual by smoothing radius. The chip values are read from a residual whose
   * smoothing follows the chip size the lattice implies: a wider high-pass keeps more of large
   * chips, a narrow one suits small chips. Radius 1 is also the synchronisation's.
   */
  residual(radius: number): Float32Array {
    let residual = this.residuals.get(radius);
    if (residual === undefined) {
      residual = this.level.residual(radius, this.window);
      this.residuals.set(radius, residual);
    }
    return residual;
  }

  /** The lattice's best alignment, decoded. */
  decodeBest(lattice: Lattice): Detection | null {
    const [best] = this.candidatesOf(lattice);
    return best === undefined ? null : this.decode(best);
  }

  /** The lattices' untried alignments in order of pilot strength, while attempts are left. */
  decodeStrongest(lattices: readonly Lattice[]): Detection | null {
    const untried = lattices
      .flatMap((lattice) => this.candidatesOf(lattice))
      .filter((candidate) => !this.tried.has(candidate))
      .sort((a, b) => b.alignment.z - a.alignment.z);
    for (const candidate of untried) {
      if (this.tried.size >= ATTEMPTS_PER_WINDOW) return null;
      const found = this.decode(candidate);
      if (found !== null) return found;
    }
    return null;
  }

  private candidatesOf(lattice: Lattice): Candidate[] {
    let candidates = this.candidates.get(lattice);
    if (candidates === undefined) {
      const chip =
        Math.sqrt(Math.abs(lattice.b1x * lattice.b2y - lattice.b2x * lattice.b1y)) / TILE;
      const radius = Math.min(MAX_READ_RADIUS, Math.max(1, Math.round(0.8 * chip + 0.3)));
      const { width, height } = this.window;
      const folded = foldTile(this.residual(radius), width, height, lattice);
      candidates = alignTile(folded, ALIGNMENTS_PER_LATTICE).map((alignment) => ({
        folded,
        alignment,
        lattice,
      }));
      this.trace.maxZ = Math.max(this.trace.maxZ, candidates[0]?.alignment.z ?? 0);
      this.candidates.set(lattice, candidates);
    }
    return candidates;
  }

  private decode(candidate: Candidate): Detection | null {
    this.tried.add(candidate);
    if (candidate.alignment.z < MIN_DECODE_Z) return null;
    this.trace.decodes++;
    // Every readout of the chips with the short list, the likelier first (the second only when its
    // pilots stand out); a deep decode reads the likelier one only.
    const readouts = readCodedBits(candidate.folded, candidate.alignment);
    for (const [i, { soft, pilotSnr }] of readouts.entries()) {
      if (i > 0 && pilotSnr < MIN_SECOND_READOUT_SNR) break;
      const found = decodeCandidate(candidate, soft, LIST_SIZE);
      if (found !== null) return inFilePixels(found, this.level, this.window);
    }
    const [likelier] = readouts;
    if (likelier === undefined || candidate.alignment.z < DEEP_PILOT_Z || !this.deep.take()) {
      return null;
    }
    const found = decodeCandidate(candidate, likelier.soft, DEEP_LIST_SIZE);
    return found === null ? null : inFilePixels(found, this.level, this.window);
  }
}

interface Candidate {
  readonly folded: Float64Array;
  readonly alignment: Alignment;
  readonly lattice: Lattice;
}

/**
 * The lattices of a copy at the original's scale and upright, tried before any lattice search:
 *
 * - a small original's (chips of exactly MIN_CHIP_PIXELS, under about 1.3 MP): a crop, a
 *   re-encode or a paste of such an image keeps that lattice, and a crop of a thumbnail may hold
 *   too few tiles for the autocorrelation to see any;
 * - the grid the file's own size implies, when its chips are larger: a copy re-encoded at its
 *   size keeps it, and strong compression can hide it from the autocorrelation (JPEG q10 of a
 *   1.5-2 MP photo, whose chips sit at 2 detection pixels next to the 8x8 blocks' own period).
 */
function unscaledLattices(level: AnalysisLevel, window: Window): Lattice[] {
  const lattices: Lattice[] = [];
  const small = smallOriginalPeriod(level, window);
  if (small !== null) lattices.push(uprightLattice(small));
  const grid = markGrid(level.file.width, level.file.height);
  if (grid.chipWidth !== MIN_CHIP_PIXELS) {
    const periodX = (TILE * grid.chipWidth) / level.scale;
    const periodY = (TILE * grid.chipHeight) / level.scaleY;
    if (fits(periodX, window) && fits(periodY, window)) {
      lattices.push(uprightLattice(periodX, periodY));
    }
  }
  return lattices;
}

/** The tile period (window pixels) of a small original's chips (MIN_CHIP_PIXELS), if it fits. */
function smallOriginalPeriod(level: AnalysisLevel, window: Window): number | null {
  const period = (TILE * MIN_CHIP_PIXELS) / level.scale;
  return fits(period, window) ? period : null;
}

/** A period the window can fold: long enough to hold a chip's pixels, at most 1.2 windows. */
function fits(period: number, window: Window): boolean {
  return period >= 24 && period <= 1.2 * Math.max(window.width, window.height);
}

/** A window's detection with its geometry moved to the file: offset by the window, scaled. */
function inFilePixels(detection: Detection, level: AnalysisLevel, window: Window): Detection {
  const geometry = detection.geometry;
  if (geometry === undefined) return detection;
  const scaled = {
    ...geometry,
    tilePixels: geometry.tilePixels * level.scale,
    tilePixelsY: geometry.tilePixelsY * level.scale,
  };
  const origin = wrapToLattice(
    (geometry.gridOriginX + window.x) * level.scale,
    (geometry.gridOriginY + window.y) * level.scale,
    scaled,
  );
  return { ...detection, geometry: { ...scaled, gridOriginX: origin.x, gridOriginY: origin.y } };
}

/** The mark in one readout of a candidate's chips, or null when no frame checks out. */
function decodeCandidate(candidate: Candidate, soft: Float64Array, list: number): Detection | null {
  const frame = decodeFrame(soft, list);
  if (frame.payload === null) return null;
  return {
    found: true,
    payload: frame.payload,
    confidence: Math.max(0, frame.correlation),
    geometry: geometryOf(candidate.lattice, candidate.alignment),
  };
}

/**
 * The geometry from the lattice found (basis b1, b2: one tile each, in pixels) and the alignment
 * of the folded tile (folded = S * original + shift, S one of the square's symmetries). The
 * original axes are then B * S * e1 and B * S * e2, and the grid's origin B * shift.
 */
function geometryOf(lattice: Lattice, alignment: Alignment): MarkGeometry {
  const [a, b, c, d] = symmetryMatrix(alignment.symmetry);
  const xAxis = { x: a * lattice.b1x + c * lattice.b2x, y: a * lattice.b1y + c * lattice.b2y };
  const yAxis = { x: b * lattice.b1x + d * lattice.b2x, y: b * lattice.b1y + d * lattice.b2y };
  const rotation = (Math.atan2(xAxis.y, xAxis.x) * 180) / Math.PI;
  const s = { x: alignment.shiftX / FOLD_BINS, y: alignment.shiftY / FOLD_BINS };
  const originX = s.x * lattice.b1x + s.y * lattice.b2x;
  const originY = s.x * lattice.b1y + s.y * lattice.b2y;
  const shape = {
    rotation: rotation <= -180 ? rotation + 360 : rotation,
    mirrored: xAxis.x * yAxis.y - xAxis.y * yAxis.x < 0,
    tilePixels: Math.hypot(xAxis.x, xAxis.y),
    tilePixelsY: Math.hypot(yAxis.x, yAxis.y),
  };
  const origin = wrapToLattice(originX, originY, shape);
  return { ...shape, gridOriginX: origin.x, gridOriginY: origin.y };
}
