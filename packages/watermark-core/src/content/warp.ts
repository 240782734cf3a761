// Resampling a copy into the reference's frame: each reference pixel is looked up in the copy
// through a placement (bilinear), so the two can be compared pixel by pixel.

import type { Memo } from './memo.ts';
import type { Placement } from './placement.ts';
import type { Planes } from './planes.ts';

/** The copy as decoded for comparison: its planes at `density` of its own pixel size. */
export interface DecodedCopy {
  readonly planes: Planes;
  readonly density: number;
  /** What is made of the copy once per comparison. */
  readonly memo: Memo;
}

/** A frame to resample into: `width` x `height` pixels, each `1 / scaleX` original pixels wide. */
export interface Frame {
  readonly width: number;
  readonly height: number;
  readonly scaleX: number;
  readonly scaleY: number;
}

export interface Warped {
  readonly y: Float32Array;
  readonly cb: Float32Array | null;
  readonly cr: Float32Array | null;
  readonly clipped: Float32Array | null;
  /** 1 where the copy shows this pixel of the original (away from its edges). */
  readonly valid: Uint8Array;
  readonly count: number;
}

/**
 * The copy resampled into `frame`. Pixels within `margin` copy pixels of the copy's edge are left
 * out: resampling and re-encoding blur an edge, and a rotated copy's corners are fill.
 */
export function warpCopy(
  copy: DecodedCopy,
  placement: Placement,
  frame: Frame,
  options: { readonly chroma: boolean; readonly margin: number; readonly luma?: Float32Array },
): Warped {
  const { planes, density } = copy;
  const n = frame.width * frame.height;
  const y = new Float32Array(n);
  const cb = options.chroma ? new Float32Array(n) : null;
  const cr = options.chroma ? new Float32Array(n) : null;
  const clipped = options.chroma ? new Float32Array(n) : null;
  const valid = new Uint8Array(n);
  const source = options.luma ?? planes.y;
  const w = planes.width;
  const maxX = planes.width - 1 - options.margin;
  const maxY = planes.height - 1 - options.margin;
  const { a, b, c, d, tx, ty } = placement;
  // Each column's terms once (the same products, summed in the same order, as per pixel).
  const ax = new Float64Array(frame.width);
  const cx = new Float64Array(frame.width);
  for (let u = 0; u < frame.width; u++) {
    const ox = (u + 0.5) / frame.scaleX;
    ax[u] = a * ox;
    cx[u] = c * ox;
  }
  let count = 0;
  for (let v = 0; v < frame.height; v++) {
    const oy = (v + 0.5) / frame.scaleY;
    const by = b * oy;
    const dy = d * oy;
    for (let u = 0; u < frame.width; u++) {
      const px = ((ax[u] as number) + by + tx) * density - 0.5;
      const py = ((cx[u] as number) + dy + ty) * density - 0.5;
      if (px < options.margin || py < options.margin || px > maxX || py > maxY) continue;
      const x0 = Math.floor(px);
      const y0 = Math.floor(py);
      const fx = px - x0;
      const fy = py - y0;
      const gx = 1 - fx;
      const gy = 1 - fy;
      const i00 = y0 * w + x0;
      const i10 = x0 + 1 < planes.width ? i00 + 1 : i00;
      const i01 = y0 + 1 < planes.height ? i00 + w : i00;
      const i11 = i10 + (i01 - i00);
      const at = v * frame.width + u;
      y[at] =
        ((source[i00] as number) * gx + (source[i10] as number) * fx) * gy +
        ((source[i01] as number) * gx + (source[i11] as number) * fx) * fy;
      if (cb !== null && cr !== null && clipped !== null) {
        cb[at] =
          ((planes.cb[i00] as number) * gx + (planes.cb[i10] as number) * fx) * gy +
          ((planes.cb[i01] as number) * gx + (planes.cb[i11] as number) * fx) * fy;
        cr[at] =
          ((planes.cr[i00] as number) * gx + (planes.cr[i10] as number) * fx) * gy +
          ((planes.cr[i01] as number) * gx + (planes.cr[i11] as number) * fx) * fy;
        clipped[at] =
          ((planes.clipped[i00] as number) * gx + (planes.clipped[i10] as number) * fx) * gy +
          ((planes.clipped[i01] as number) * gx + (planes.clipped[i11] as number) * fx) * fy;
      }
      valid[at] = 1;
      count++;
    }
  }
  return { y, cb, cr, clipped, valid, count };
}

/** Normalised cross-correlation of two planes over the valid pixels; 0 for a flat one. */
export function correlation(a: Float32Array, b: Float32Array, valid: Uint8Array): number {
  let n = 0;
  let sa = 0;
  let sb = 0;
  for (let i = 0; i < valid.length; i++) {
    if (valid[i] === 0) continue;
    n++;
    sa += a[i] as number;
    sb += b[i] as number;
  }
  if (n < 16) return 0;
  const ma = sa / n;
  const mb = sb / n;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < valid.length; i++) {
    if (valid[i] === 0) continue;
    const da = (a[i] as number) - ma;
    const db = (b[i] as number) - mb;
    ab += da * db;
    aa += da * da;
    bb += db * db;
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
}
