// Folding: once the lattice is known, every pixel of the detection image is added to the bin of
// its position within the tile (half-chip bins, 128x128), so all copies of the tile in the image
// are averaged into one: the mark adds up coherently, the host image does not.

import { TILE } from '../code/mark-layout.ts';
import type { Lattice } from './sync-lattice.ts';

/** Bins per tile side: two per chip, so the chip phase can be found to a quarter chip. */
export const FOLD_BINS = TILE * 2;

/** Mean of `residual` per half-chip bin of the tile, row-major FOLD_BINS x FOLD_BINS. */
export function foldTile(
  residual: Float32Array,
  width: number,
  height: number,
  lattice: Lattice,
): Float64Array {
  const bins = FOLD_BINS;
  // Tile coordinates q = B^-1 p, scaled to bins.
  const det = lattice.b1x * lattice.b2y - lattice.b2x * lattice.b1y;
  const i00 = (lattice.b2y / det) * bins;
  const i01 = (-lattice.b2x / det) * bins;
  const i10 = (-lattice.b1y / det) * bins;
  const i11 = (lattice.b1x / det) * bins;
  const sum = new Float64Array(bins * bins);
  const count = new Float64Array(bins * bins);
  // Offset keeps coordinates positive so that `| 0` floors; any whole number of tiles works.
  const offset = bins * 1024 + 0.5;
  for (let y = 0; y < height; y++) {
    let u = i01 * y + offset;
    let v = i11 * y + offset;
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const value = residual[row + x] as number;
      if (value !== 0) {
        const bin = ((v | 0) & (bins - 1)) * bins + ((u | 0) & (bins - 1));
        sum[bin] = (sum[bin] as number) + value;
        count[bin] = (count[bin] as number) + 1;
      }
      u += i00;
      v += i10;
    }
  }
  for (let i = 0; i < sum.length; i++) {
    const c = count[i] as number;
    sum[i] = c > 0 ? (sum[i] as number) / c : 0;
  }
  return sum;
}
