// detectMark: resample to the detection size, whiten, find the tile lattice, fold, align with the
// pilots, decode. At most MAX_DECODE_ATTEMPTS frames are decoded per image, each by a list decoder
// that CRC-checks at most LIST_SIZE candidate frames, so an unmarked image is reported as marked
// with probability at most MAX_DECODE_ATTEMPTS * LIST_SIZE * 2^-32 = 6e-8 (see the README).
import { highPass, localRms } from './filters.ts';
import { decodeFrame } from './frame-code.ts';
import { DEFAULT_MAX_PIXELS, decodeLuma, inspectImage, MIN_DETECT_SIDE } from './image-io.ts';
import { detectionSize } from './mark-geometry.ts';
import { TILE } from './mark-layout.ts';
import type { MarkPayload } from './payload.ts';
import { estimateLattices, type Lattice } from './sync-lattice.ts';
import { type Alignment, alignTile, readCodedBits, symmetryMatrix } from './tile-align.ts';
import { FOLD_BINS, foldTile } from './tile-fold.ts';

const LATTICE_CANDIDATES = 4;
const ALIGNMENTS_PER_LATTICE = 3;
/** Frames decoded per image at most; with LIST_SIZE, the factor in the false-detection bound. */
export const MAX_DECODE_ATTEMPTS = 8;

export interface DetectOptions {
  /** Largest accepted image (width x height). Default 50 MP. */
  readonly maxPixels?: number;
}

/**
 * How the copy's mark lies compared with how it was embedded: what the detector had to undo.
 * Distances are in the analysed image's pixels (`detectMark` converts them to the file's).
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

const NOT_FOUND: Detection = { found: false, payload: null, confidence: 0 };

/** Looks for a mark in an encoded image; needs no original. */
export async function detectMark(
  image: Uint8Array,
  options: DetectOptions = {},
): Promise<Detection> {
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;
  const info = await inspectImage(image, maxPixels, MIN_DETECT_SIDE);
  const size = detectionSize(info.width, info.height);
  const luma = await decodeLuma(image, maxPixels, size.width, size.height);
  return inFilePixels(detectInLuma(luma, size.width, size.height), info.width / size.width);
}

/** A detection's geometry scaled from the analysed image to the file (`factor` = file / analysed). */
export function inFilePixels(detection: Detection, factor: number): Detection {
  const geometry = detection.geometry;
  if (geometry === undefined || factor === 1) return detection;
  return {
    ...detection,
    geometry: {
      ...geometry,
      tilePixels: geometry.tilePixels * factor,
      gridOriginX: geometry.gridOriginX * factor,
      gridOriginY: geometry.gridOriginY * factor,
    },
  };
}

/** Detection on a luma image already at the detection size. */
export function detectInLuma(luma: Float32Array, width: number, height: number): Detection {
  const syncResidual = whitenedResidual(luma, width, height, 1);
  // The chip values are read from a residual whose smoothing follows the chip size the lattice
  // implies: a wider high-pass keeps more of large chips, a narrow one suits small chips.
  // Radius 1 is the sync residual itself (neither the lattice search nor folding changes it).
  const foldResiduals = new Map<number, Float32Array>([[1, syncResidual]]);
  const foldResidual = (radius: number) => {
    let residual = foldResiduals.get(radius);
    if (residual === undefined) {
      residual = whitenedResidual(luma, width, height, radius);
      foldResiduals.set(radius, residual);
    }
    return residual;
  };
  // Every candidate lattice is folded and aligned; the alignments are then decoded in order of
  // pilot-correlation strength, at most MAX_DECODE_ATTEMPTS of them. The strongest lattice is
  // tried first on its own: on a copy that kept its mark well its best alignment decodes, and
  // the other lattices need not be folded at all (the frame code's check makes an early answer
  // as sure as a late one).
  const lattices = estimateLattices(syncResidual, width, height, LATTICE_CANDIDATES);
  const candidatesOf = (lattice: Lattice) => {
    const chip = Math.sqrt(Math.abs(lattice.b1x * lattice.b2y - lattice.b2x * lattice.b1y)) / TILE;
    const radius = Math.min(4, Math.max(1, Math.round(0.8 * chip + 0.3)));
    const folded = foldTile(foldResidual(radius), width, height, lattice);
    return alignTile(folded, ALIGNMENTS_PER_LATTICE).map((alignment) => ({
      folded,
      alignment,
      lattice,
    }));
  };
  const [strongest, ...others] = lattices;
  if (strongest === undefined) return NOT_FOUND;
  const first = candidatesOf(strongest);
  const quick = first[0] === undefined ? null : decodeCandidate(first[0]);
  if (quick !== null) return quick;
  const candidates = [...first.slice(1), ...others.flatMap(candidatesOf)];
  candidates.sort((a, b) => b.alignment.z - a.alignment.z);
  for (const candidate of candidates.slice(0, MAX_DECODE_ATTEMPTS - 1)) {
    const found = decodeCandidate(candidate);
    if (found !== null) return found;
  }
  return NOT_FOUND;
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
 * The image's fine structure (luma minus its local mean over a box of `radius`, applied twice)
 * divided by its local strength and clipped: busy areas and edges, where the host image
 * dominates, count no more than flat ones, where the mark is easiest to see.
 */
export function whitenedResidual(
  luma: Float32Array,
  width: number,
  height: number,
  radius: number,
): Float32Array {
  const residual = highPass(luma, width, height, radius);
  const strength = localRms(residual, width, height, 2);
  for (let i = 0; i < residual.length; i++) {
    const v = (residual[i] as number) / ((strength[i] as number) + 0.5);
    residual[i] = v > 1.5 ? 1.5 : Math.max(v, -1.5);
  }
  return residual;
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
