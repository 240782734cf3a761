// Where a copy shows the original: the mark's geometry fixes the copy's scale, rotation and
// mirroring, and where the original's tile grid lies modulo one tile. What it leaves open is which
// tile of the original is which in the copy: a few lattice positions, each a candidate placement.

import { markGrid, originalAxes } from '../code/mark-geometry.ts';
import type { MarkGeometry } from '../detect/detect.ts';

/** An affine map from the original's pixels to the copy's: copy = [a b; c d] * original + t. */
export interface Placement {
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
  readonly tx: number;
  readonly ty: number;
}

export interface Size {
  readonly width: number;
  readonly height: number;
}

/** The placements the mark allows: its geometry at every lattice position that overlaps the copy. */
export function latticePlacements(geometry: MarkGeometry, original: Size, copy: Size): Placement[] {
  const grid = markGrid(original.width, original.height);
  const scale = markScale(geometry, original);
  const axes = originalAxes(geometry.rotation, geometry.mirrored);
  const linear = {
    a: axes.x.x * scale,
    b: axes.y.x * scale,
    c: axes.x.y * scale,
    d: axes.y.y * scale,
  };
  const along = { x: axes.x.x * geometry.tilePixels, y: axes.x.y * geometry.tilePixels };
  const tileY = scale * 32 * grid.chipHeight;
  const across = { x: axes.y.x * tileY, y: axes.y.y * tileY };
  // Lattice steps needed to move the original's frame across the whole copy, either way.
  const reach =
    (Math.hypot(copy.width, copy.height) + Math.hypot(original.width, original.height) * scale) /
    Math.min(geometry.tilePixels, tileY);
  const steps = Math.ceil(reach) + 1;
  const placements: Placement[] = [];
  for (let j = -steps; j <= steps; j++) {
    for (let i = -steps; i <= steps; i++) {
      const placement = {
        ...linear,
        tx: geometry.gridOriginX + i * along.x + j * across.x,
        ty: geometry.gridOriginY + i * along.y + j * across.y,
      };
      if (overlapsCopy(placement, original, copy)) placements.push(placement);
    }
  }
  return placements;
}

/** The copy's size against the original's, from the size of the mark's tile in the copy. */
export function markScale(geometry: MarkGeometry, original: Size): number {
  return geometry.tilePixels / (32 * markGrid(original.width, original.height).chipWidth);
}

/** The copy point of an original point. */
export function toCopy(placement: Placement, x: number, y: number): { x: number; y: number } {
  return {
    x: placement.a * x + placement.b * y + placement.tx,
    y: placement.c * x + placement.d * y + placement.ty,
  };
}

/**
 * Whether the original's frame, placed, covers any of the copy (by its bounding box). Written
 * out: thousands of lattice positions are tested per comparison.
 */
function overlapsCopy(placement: Placement, original: Size, copy: Size): boolean {
  const { a, b, c, d, tx, ty } = placement;
  const w = original.width;
  const h = original.height;
  // The corners (0, 0), (w, 0), (0, h), (w, h), as toCopy computes them.
  const x0 = a * 0 + b * 0 + tx;
  const x1 = a * w + b * 0 + tx;
  const x2 = a * 0 + b * h + tx;
  const x3 = a * w + b * h + tx;
  const y0 = c * 0 + d * 0 + ty;
  const y1 = c * w + d * 0 + ty;
  const y2 = c * 0 + d * h + ty;
  const y3 = c * w + d * h + ty;
  return (
    Math.max(x0, x1, x2, x3) > 0 &&
    Math.min(x0, x1, x2, x3) < copy.width &&
    Math.max(y0, y1, y2, y3) > 0 &&
    Math.min(y0, y1, y2, y3) < copy.height
  );
}
