// The mark as a field of luma changes: chip amplitudes times the tiled +-1 pattern on the chip
// grid, then spread over the full-resolution pixels by bilinear interpolation (smooth, so no chip
// edges show) and added equally to R, G and B, which changes luma and leaves hue alone.
import { encodeFrame } from './frame-code.ts';
import type { MarkGrid } from './mark-geometry.ts';
import { TILE, tilePattern } from './mark-layout.ts';

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

export interface PixelBuffer {
  readonly data: Uint8Array | Uint16Array;
  readonly width: number;
  readonly height: number;
  readonly channels: number;
  /** The last channel is alpha and must not change. */
  readonly hasAlpha: boolean;
}

/** Adds the bilinearly interpolated field to every colour channel of `pixels`, in place. */
export function addMarkField(pixels: PixelBuffer, grid: MarkGrid, field: Float32Array): void {
  const { width, height, channels, data } = pixels;
  const colourChannels = pixels.hasAlpha ? channels - 1 : channels;
  const max = data instanceof Uint16Array ? 65535 : 255;
  const scale = max / 255;
  const { columns, rows } = grid;
  // Each grid row interpolated along x once; each pixel row then blends two of them.
  const x0 = new Int32Array(width);
  const x1 = new Int32Array(width);
  const tx = new Float32Array(width);
  for (let x = 0; x < width; x++) {
    const u = Math.min(columns - 1, Math.max(0, ((x + 0.5) * columns) / width - 0.5));
    const i0 = Math.floor(u);
    x0[x] = i0;
    x1[x] = Math.min(columns - 1, i0 + 1);
    tx[x] = u - i0;
  }
  const rowCache = new Map<number, Float32Array>();
  const gridRow = (j: number): Float32Array => {
    let row = rowCache.get(j);
    if (row === undefined) {
      row = new Float32Array(width);
      const base = j * columns;
      for (let x = 0; x < width; x++) {
        const t = tx[x] as number;
        row[x] =
          ((1 - t) * (field[base + (x0[x] as number)] as number) +
            t * (field[base + (x1[x] as number)] as number)) *
          scale;
      }
      rowCache.set(j, row);
      rowCache.delete(j - 2);
    }
    return row;
  };
  for (let y = 0; y < height; y++) {
    const v = Math.min(rows - 1, Math.max(0, ((y + 0.5) * rows) / height - 0.5));
    const j0 = Math.floor(v);
    const ty = v - j0;
    const r0 = gridRow(j0);
    const r1 = gridRow(Math.min(rows - 1, j0 + 1));
    let p = y * width * channels;
    for (let x = 0; x < width; x++) {
      const delta = (1 - ty) * (r0[x] as number) + ty * (r1[x] as number);
      for (let c = 0; c < colourChannels; c++) {
        const value = (data[p + c] as number) + delta + 0.5;
        data[p + c] = value <= 0 ? 0 : value >= max ? max : value;
      }
      p += channels;
    }
  }
}
