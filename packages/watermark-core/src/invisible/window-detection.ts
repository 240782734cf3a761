// Detection in one window of one analysis level: whiten, find the tile lattice, fold, align with
// the pilots, decode. At most ATTEMPTS_PER_WINDOW frames are decoded per window, each by a list
// decoder that checks at most LIST_SIZE candidate frames (detect.ts counts the windows).
import type { AnalysisLevel, Window } from './analysis-level.ts';
import { decodeFrame } from './frame-code.ts';
import { MIN_CHIP_PIXELS } from './mark-geometry.ts';
import { TILE } from './mark-layout.ts';
import type { MarkPayload } from './payload.ts';
import { estimateLattices, type Lattice, sameLattice } from './sync-lattice.ts';
import { type Alignment, alignTile, readCodedBits, symmetryMatrix } from './tile-align.ts';
import { FOLD_BINS, foldTile } from './tile-fold.ts';

const LATTICE_CANDIDATES = 4;
const ALIGNMENTS_PER_LATTICE = 3;
/** Frames decoded per window at most; with LIST_SIZE and the windows, the false-detection bound. */
export const ATTEMPTS_PER_WINDOW = 8;

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
  /**
   * Where a corner of the original tile grid lies, along the copy's axes (modulo one tile): a
   * crop of the original moves it.
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
 */
export function detectInWindow(level: AnalysisLevel, window: Window): Detection | null {
  const residual = residualsOf(level, window);
  const { width, height } = window;
  const lattices = estimateLattices(residual(1), width, height, LATTICE_CANDIDATES);
  const native = nativeLattice(level, window);
  if (native !== null && !lattices.some((lattice) => sameLattice(lattice, native)))
    lattices.push(native);
  return decodeLattices(level, window, residual, lattices);
}

/**
 * The window's residuals by smoothing radius. The chip values are read from a residual whose
 * smoothing follows the chip size the lattice implies: a wider high-pass keeps more of large
 * chips, a narrow one suits small chips. Radius 1 is also the synchronisation's.
 */
function residualsOf(level: AnalysisLevel, window: Window): (radius: number) => Float32Array {
  const residuals = new Map<number, Float32Array>();
  return (radius) => {
    let residual = residuals.get(radius);
    if (residual === undefined) {
      residual = level.residual(radius, window);
      residuals.set(radius, residual);
    }
    return residual;
  };
}

/**
 * The window is folded under every lattice and each fold aligned; the alignments are then decoded
 * in order of pilot-correlation strength, at most ATTEMPTS_PER_WINDOW of them. The strongest
 * lattice is tried first on its own: on a copy that kept its mark well its best alignment decodes,
 * and the other lattices need not be folded at all (the frame code's check makes an early answer
 * as sure as a late one).
 */
function decodeLattices(
  level: AnalysisLevel,
  window: Window,
  residual: (radius: number) => Float32Array,
  lattices: readonly Lattice[],
): Detection | null {
  const candidatesOf = (lattice: Lattice) => {
    const chip = Math.sqrt(Math.abs(lattice.b1x * lattice.b2y - lattice.b2x * lattice.b1y)) / TILE;
    const radius = Math.min(4, Math.max(1, Math.round(0.8 * chip + 0.3)));
    const folded = foldTile(residual(radius), window.width, window.height, lattice);
    return alignTile(folded, ALIGNMENTS_PER_LATTICE).map((alignment) => ({
      folded,
      alignment,
      lattice,
    }));
  };
  const [strongest, ...others] = lattices;
  if (strongest === undefined) return null;
  const inFile = (found: Detection | null) =>
    found === null ? null : inFilePixels(found, level, window);
  const first = candidatesOf(strongest);
  const quick = first[0] === undefined ? null : decodeCandidate(first[0]);
  if (quick !== null) return inFile(quick);
  const candidates = [...first.slice(1), ...others.flatMap(candidatesOf)];
  candidates.sort((a, b) => b.alignment.z - a.alignment.z);
  for (const candidate of candidates.slice(0, ATTEMPTS_PER_WINDOW - 1)) {
    const found = decodeCandidate(candidate);
    if (found !== null) return inFile(found);
  }
  return null;
}

/**
 * The lattice of a copy at the original's scale and upright, when the original was small enough
 * for the smallest chips (MIN_CHIP_PIXELS, under about 1.3 MP): a crop, a re-encode or a paste of
 * such an image keeps that lattice exactly. Tried besides the lattices the autocorrelation finds,
 * since a crop of a thumbnail may hold too few tiles for the autocorrelation to see any.
 */
function nativeLattice(level: AnalysisLevel, window: Window): Lattice | null {
  const period = (TILE * MIN_CHIP_PIXELS) / level.scale;
  if (period < 24 || period > 1.2 * Math.max(window.width, window.height)) return null;
  return { b1x: period, b1y: 0, b2x: 0, b2y: period, score: 0 };
}

/** A window's detection with its geometry moved to the file: offset by the window, scaled. */
function inFilePixels(detection: Detection, level: AnalysisLevel, window: Window): Detection {
  const geometry = detection.geometry;
  if (geometry === undefined) return detection;
  const tile = geometry.tilePixels * level.scale;
  const wrapTo = (value: number) => ((value % tile) + tile) % tile;
  return {
    ...detection,
    geometry: {
      ...geometry,
      tilePixels: tile,
      gridOriginX: wrapTo((geometry.gridOriginX + window.x) * level.scale),
      gridOriginY: wrapTo((geometry.gridOriginY + window.y) * level.scale),
    },
  };
}

/** The mark read under one lattice and alignment, or null when the frame does not check out. */
function decodeCandidate(candidate: {
  readonly folded: Float64Array;
  readonly alignment: Alignment;
  readonly lattice: Lattice;
}): Detection | null {
  const frame = decodeFrame(readCodedBits(candidate.folded, candidate.alignment));
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
  const tile = Math.hypot(xAxis.x, xAxis.y);
  const wrapTo = (value: number, period: number) => ((value % period) + period) % period;
  return {
    rotation: rotation <= -180 ? rotation + 360 : rotation,
    mirrored: xAxis.x * yAxis.y - xAxis.y * yAxis.x < 0,
    tilePixels: tile,
    gridOriginX: wrapTo(originX, tile),
    gridOriginY: wrapTo(originY, tile),
  };
}
