// Whether the mark follows the content. An honest copy carries its mark and its picture in one
// piece: whatever resized or turned the one did the same to the other, so where the alignment
// finds the picture at another scale than the mark's geometry says, it is the geometry that erred,
// and the mark's own tiles lie at the picture's scale too. A mark moved onto a second shot of the
// scene keeps the scale it was embedded at while the picture under it is framed a little tighter.
// So the mark's pilot is folded twice, at the geometry's lattice and at that lattice carried by
// the correction the alignment found, and the two strengths are compared.
import { detectionSize, originalAxes } from '../code/mark-geometry.ts';
import { AnalysisLevel } from '../detect/analysis-level.ts';
import type { MarkGeometry } from '../detect/detect.ts';
import type { Lattice } from '../detect/sync-lattice.ts';
import { alignTile } from '../detect/tile-align.ts';
import { foldTile } from '../detect/tile-fold.ts';
import { decodeLuma } from '../image/image-io.ts';
import type { Drift } from './alignment.ts';
import type { Size } from './placement.ts';

export interface MarkStrengths {
  /** Pilot z-score of the mark folded at the geometry's lattice. */
  readonly atMark: number;
  /** Pilot z-score of the mark folded at the lattice the content's correction implies. */
  readonly atContent: number;
}

/**
 * The mark's pilot strength in the copy at its geometry's lattice and at that lattice scaled and
 * turned by `drift` (the correction that puts the content in place).
 */
export async function markStrengths(
  copyImage: Uint8Array,
  copySize: Size,
  geometry: MarkGeometry,
  drift: Drift,
  maxPixels: number,
): Promise<MarkStrengths> {
  const size = detectionSize(copySize.width, copySize.height);
  const luma = await decodeLuma(copyImage, maxPixels, size.width, size.height);
  const level = new AnalysisLevel(luma, size.width, size.height, copySize);
  const residual = level.residual(1);
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
