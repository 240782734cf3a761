// Filters that respect a mask of valid pixels: the copy shows only part of the reference's frame,
// and what lies outside it (fill, margins, nothing) must not bleed into what is compared.
import { gaussianBlur } from './planes.ts';
import type { Region } from './regions.ts';

/**
 * The blurred masks, by mask and sigma: a comparison blurs several planes through the same mask.
 * A mask is never changed once made, so its blur stays valid for as long as the mask lives.
 */
const blurredMasks = new WeakMap<Uint8Array, Map<number, Float32Array>>();

function blurredMask(
  valid: Uint8Array,
  width: number,
  height: number,
  sigma: number,
): Float32Array {
  let bySigma = blurredMasks.get(valid);
  if (bySigma === undefined) {
    bySigma = new Map();
    blurredMasks.set(valid, bySigma);
  }
  let total = bySigma.get(sigma);
  if (total === undefined) {
    total = gaussianBlur(Float32Array.from(valid), width, height, sigma);
    bySigma.set(sigma, total);
  }
  return total;
}

/** The masked plane blurred, kept between calls (written whole before it is read). */
let weighted = new Float32Array(0);

/** Blur of the valid pixels only (normalised convolution). */
export function maskedBlur(
  plane: Float32Array,
  valid: Uint8Array,
  width: number,
  height: number,
  sigma: number,
): Float32Array {
  if (weighted.length < plane.length) weighted = new Float32Array(plane.length);
  for (let i = 0; i < plane.length; i++) {
    weighted[i] = (valid[i] as number) * (plane[i] as number);
  }
  const sum = gaussianBlur(weighted.subarray(0, plane.length), width, height, sigma);
  const total = blurredMask(valid, width, height, sigma);
  for (let i = 0; i < sum.length; i++) {
    const t = total[i] as number;
    sum[i] = t > 1e-3 ? (sum[i] as number) / t : 0;
  }
  return sum;
}

/** The mask less a border of `radius` pixels (square), outside the frame counting as invalid. */
export function erode(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  // Rows first (a run of valid pixels at least 2r+1 long around x), then columns.
  const rows = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) runs(mask, rows, y * width, 1, width, radius);
  const out = new Uint8Array(mask.length);
  for (let x = 0; x < width; x++) runs(rows, out, x, width, height, radius);
  return out;
}

function runs(
  src: Uint8Array,
  dst: Uint8Array,
  start: number,
  step: number,
  length: number,
  radius: number,
): void {
  // distance to the previous invalid pixel, then to the next
  const before = new Int32Array(length);
  let last = -1;
  for (let k = 0; k < length; k++) {
    if (src[start + k * step] === 0) last = k;
    before[k] = last === -1 ? k + 1 : k - last;
  }
  let next = length;
  for (let k = length - 1; k >= 0; k--) {
    if (src[start + k * step] === 0) next = k;
    const after = next === length ? length - k : next - k;
    dst[start + k * step] = (before[k] as number) > radius && after > radius ? 1 : 0;
  }
}

/** The pixels of `mask` outside `exclude`. */
export function without(mask: Uint8Array, exclude: Uint8Array): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) out[i] = (mask[i] as number) & ((exclude[i] as number) ^ 1);
  return out;
}

export function subtract(a: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = (a[i] as number) - (b[i] as number);
  return out;
}

/** The bounding box of the set pixels of a mask, or null when none is set. */
export function maskBounds(mask: Uint8Array, width: number): Region | null {
  let x0 = width;
  let y0 = mask.length;
  let x1 = -1;
  let y1 = -1;
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] === 0) continue;
    const x = i % width;
    const y = (i - x) / width;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return x1 < 0 ? null : { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}
