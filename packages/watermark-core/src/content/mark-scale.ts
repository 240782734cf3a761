// Whether the mark follows the content. An honest copy carries its mark and its picture in one
// piece: whatever resized or turned the one did the same to the other, so where the alignment
// finds the picture at another scale than the mark's geometry says, it is the geometry that erred,
// and the mark's own tiles lie at the picture's scale too. A mark moved onto a second shot of the
// scene keeps the scale it was embedded at while the picture under it is framed a little tighter.
// So the mark's pilot is folded twice, at the geometry's lattice and at that lattice carried by
// the correction the alignment found, and the two strengths are compared.
import { originalAxes } from '../code/mark-geometry.ts';
import type { AnalysisLevel } from '../detect/analysis-level.ts';
import { detectionLevel, type MarkGeometry } from '../detect/detect.ts';
import type { Lattice } from '../detect/sync-lattice.ts';
import { alignTile } from '../detect/tile-align.ts';
import { foldTile } from '../detect/tile-fold.ts';
import type { Drift } from './alignment.ts';
import type { Size } from './placement.ts';

export interface MarkStrengths {
  /** Pilot z-score of the mark folded at the geometry's lattice. */
  readonly atMark: number;
  /** Pilot z-score of the mark folded at the lattice the content's correction implies. */
  readonly atContent: number;
}

/** The copy at the detector's first level, with its residual: what every strength is read from. */
export interface MarkLevel {
  readonly level: AnalysisLevel;
  readonly residual: ReturnType<AnalysisLevel['residual']>;
}

/** Decodes the copy as the detector does; a comparison does it once for all its checks. */
export async function markLevel(
  copyImage: Uint8Array,
  copySize: Size,
  maxPixels: number,
): Promise<MarkLevel> {
  const level = await detectionLevel(copyImage, copySize, maxPixels);
  return { level, residual: level.residual(1) };
}

/**
 * The mark's pilot strength in the copy at its geometry's lattice and at that lattice scaled and
 * turned by `drift` (the correction that puts the content in place).
 */
export function markStrengths(
  copy: MarkLevel,
  geometry: MarkGeometry,
  drift: Drift,
): MarkStrengths {
  const { level, residual } = copy;
  const axes = originalAxes(geometry.rotation, geometry.mirrored);
  const sx = geometry.tilePixels / level.scale;
  const sy = geometry.tilePixelsY / level.scaleY;
  const mark: Lattice = {
    b1x: axes.x.x * sx,
    b1y: axes.x.y * sx,
    b2x: axes.y.x * sy,
    b2y: axes.y.y * sy,
    score: 0,
  };
  // The correction as a turn and a scale in the copy's pixels, applied to both basis vectors.
  const radians = (drift.turn * Math.PI) / 180;
  const k = 1 + drift.scale;
  const cos = Math.cos(radians) * k;
  const sin = Math.sin(radians) * k;
  const content: Lattice = {
    b1x: cos * mark.b1x - sin * mark.b1y,
    b1y: sin * mark.b1x + cos * mark.b1y,
    b2x: cos * mark.b2x - sin * mark.b2y,
    b2y: sin * mark.b2x + cos * mark.b2y,
    score: 0,
  };
  const strength = (lattice: Lattice) =>
    alignTile(foldTile(residual, level.width, level.height, lattice), 1)[0]?.z ?? 0;
  return { atMark: strength(mark), atContent: strength(content) };
}
