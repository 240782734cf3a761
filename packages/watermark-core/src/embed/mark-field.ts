// The mark as a field of luma changes: chip amplitudes times the tiled +-1 pattern on the chip
// grid, then spread over the full-resolution pixels by bilinear interpolation (smooth, so no chip
// edges show) and added equally to R, G and B, which changes luma and leaves hue alone.
import { encodeFrame } from '../code/frame-code.ts';
import type { MarkGrid } from '../code/mark-geometry.ts';
import { TILE, tilePattern } from '../code/mark-layout.ts';
import type { PixelBuffer } from '../image/image-io.ts';
import { simdRowAdder } from './mark-add-simd.ts';

/** Signed luma change per chip (8-bit levels), grid.columns x grid.rows. */
export function markField(grid: MarkGrid, strength: Float32Array, payload: bigint): Float32Array {
  const pattern = tilePattern(encodeFrame(payload));
  const field = new Float32Array(grid.columns * grid.rows);
  for (let j = 0; j < grid.rows; j++) {
    const tileRow = (j % TILE) * TILE;
    for (let i = 0; i < grid.columns; i++) {
      const k = j * grid.columns + i;
      field[k] = (strength[k] as number) * (pattern[tileRow + (i % TILE)] as number);
    }
  }
  return field;
}

/** What one of the field's 8-bit levels is in 16-bit samples, and their largest value. */
export interface WideLevels {
  readonly scale: number;
  readonly max: number;
}

/** sharp's 16-bit samples: 0-255 spread over 0-65535. */
export const SIXTEEN_BIT: WideLevels = { scale: 257, max: 65535 };

/** Video's 10-bit samples (yuv420p10le): 8-bit levels shifted up by two bits, up to 1023. */
export const TEN_BIT: WideLevels = { scale: 4, max: 1023 };

export interface AddMarkFieldOptions {
  /** false forces the JavaScript loop (tests compare the two). */
  readonly allowSimd?: boolean;
  /** How Uint16Array samples hold levels. Default SIXTEEN_BIT. */
  readonly wide?: WideLevels;
}

/** Adds the bilinearly interpolated field to every colour channel of `pixels`, in place. */
export function addMarkField(
  pixels: PixelBuffer,
  grid: MarkGrid,
  field: Float32Array,
  { allowSimd = true, wide = SIXTEEN_BIT }: AddMarkFieldOptions = {},
): void {
  const { width, height, channels, data } = pixels;
  const colourChannels = pixels.hasAlpha ? channels - 1 : channels;
  const scale = data instanceof Uint16Array ? wide.scale : 1;
  const { columns, rows } = grid;
  const x0 = new Int32Array(width);
  const x1 = new Int32Array(width);
  const tx = new Float32Array(width);
  for (let x = 0; x < width; x++) {
    const u = Math.min(columns - 1, Math.max(0, (x + 0.5) / grid.chipWidth - 0.5));
    const i0 = Math.floor(u);
    x0[x] = i0;
    x1[x] = Math.min(columns - 1, i0 + 1);
    tx[x] = u - i0;
  }
  // 8-bit images go through the SIMD loop (round(v + d) = v + round(d) for integer v); 16-bit
  // ones, and runtimes without WebAssembly SIMD, through the JavaScript one.
  const simd =
    allowSimd && data instanceof Uint8Array && pixels.hasAlpha === (channels % 2 === 0)
      ? simdRowAdder(data, width, channels, 2)
      : null;
  // Two slots hold grid rows interpolated along x; each pixel row blends the two around it.
  const slots = simd?.slots ?? [new Float32Array(width), new Float32Array(width)];
  const held = [-1, -1];
  const slotOf = (j: number): number => {
    const hit = held.indexOf(j);
    if (hit >= 0) return hit;
    // Rows are visited downwards, so the slot holding the upper row is free.
    const slot = (held[0] as number) < (held[1] as number) ? 0 : 1;
    const row = slots[slot] as Float32Array;
    const base = j * columns;
    for (let x = 0; x < width; x++) {
      const t = tx[x] as number;
      const a = field[base + (x0[x] as number)] as number;
      row[x] = (a + t * ((field[base + (x1[x] as number)] as number) - a)) * scale;
    }
    held[slot] = j;
    return slot;
  };
  const delta = simd === null ? new Float32Array(width) : null;
  for (let y = 0; y < height; y++) {
    const v = Math.min(rows - 1, Math.max(0, (y + 0.5) / grid.chipHeight - 0.5));
    const j0 = Math.floor(v);
    const a = slotOf(j0);
    const b = slotOf(Math.min(rows - 1, j0 + 1));
    const t = v - j0;
    if (simd !== null) {
      simd.addRow(y, a, b, t);
      continue;
    }
    const r0 = slots[a] as Float32Array;
    const r1 = slots[b] as Float32Array;
    const out = delta as Float32Array;
    for (let x = 0; x < width; x++) {
      const v0 = r0[x] as number;
      out[x] = v0 + t * ((r1[x] as number) - v0);
    }
    const start = y * width * channels;
    if (data instanceof Uint16Array) addRow16(data, start, channels, colourChannels, out, wide.max);
    else addRow8(data, start, channels, colourChannels, out);
  }
}

/**
 * 8-bit samples: pixel values are integers, so round(v + d) = v + round(d); the sum is clamped
 * to 0..255 without branches (this loop touches every sample of the image).
 */
function addRow8(
  data: Uint8Array,
  start: number,
  channels: number,
  colourChannels: number,
  delta: Float32Array,
): void {
  const n = delta.length;
  if (colourChannels === 3) {
    for (let x = 0, p = start; x < n; x++, p += channels) {
      // |d| < 256, so the shifted value is positive and `| 0` floors it.
      const d = (((delta[x] as number) + 256.5) | 0) - 256;
      let v = (data[p] as number) + d;
      v &= ~(v >> 31);
      data[p] = v | ((255 - v) >> 31);
      v = (data[p + 1] as number) + d;
      v &= ~(v >> 31);
      data[p + 1] = v | ((255 - v) >> 31);
      v = (data[p + 2] as number) + d;
      v &= ~(v >> 31);
      data[p + 2] = v | ((255 - v) >> 31);
    }
    return;
  }
  for (let x = 0, p = start; x < n; x++, p += channels) {
    const d = (((delta[x] as number) + 256.5) | 0) - 256;
    let v = (data[p] as number) + d;
    v &= ~(v >> 31);
    data[p] = v | ((255 - v) >> 31);
  }
}

function addRow16(
  data: Uint16Array,
  start: number,
  channels: number,
  colourChannels: number,
  delta: Float32Array,
  max: number,
): void {
  for (let x = 0, p = start; x < delta.length; x++, p += channels) {
    const d = (delta[x] as number) + 0.5;
    for (let c = 0; c < colourChannels; c++) {
      const value = (data[p + c] as number) + d;
      data[p + c] = value <= 0 ? 0 : Math.min(value, max);
    }
  }
}
