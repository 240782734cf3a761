// A perceptual fingerprint of an image: a 64-bit DCT hash of its low frequencies (the classic
// pHash construction). It is recorded with every marked output and in its manifest, and reported
// with a verification; it decides nothing there (a crop moves it as far as another picture does:
// the content comparison, see docs/verification.md, tells whether a copy shows the picture its
// mark was issued in). Pure arithmetic on a luma image, so that the embedder (on its pixel thread)
// and the reader take it from the luma they decode anyway.

const SIZE = 32;
const LOW = 8;

/** Bits (of 64) two fingerprints of one picture re-encoded or resized differ by at most. */
export const SAME_PICTURE_MAX_DISTANCE = 16;

/** The 1-D DCT-II basis for SIZE samples, LOW coefficients: basis[k][n]. */
const BASIS: Float64Array[] = Array.from({ length: LOW }, (_, k) =>
  Float64Array.from({ length: SIZE }, (_, n) => Math.cos(((2 * n + 1) * k * Math.PI) / (2 * SIZE))),
);

/** The axes of the original picture in a copy, each one of (+-1, 0) or (0, +-1). */
export interface Orientation {
  readonly x: readonly [number, number];
  readonly y: readonly [number, number];
}

const UPRIGHT: Orientation = { x: [1, 0], y: [0, 1] };

/**
 * The fingerprint of a luma image: averaged down to 32 x 32, then the DCT's low frequencies.
 * `orientation` (from the mark's geometry) turns a copy that was rotated by quarter turns or
 * mirrored back upright first, so it fingerprints as its original.
 */
export function fingerprintOfLuma(
  luma: Float32Array,
  width: number,
  height: number,
  orientation: Orientation = UPRIGHT,
): string {
  return hashGrid(upright(lumaGrid(luma, width, height), orientation));
}

/** Cell (u, v) of the original's grid is the copy's cell at u * x + v * y (centred). */
function upright(grid: Float64Array, orientation: Orientation): Float64Array {
  if (orientation === UPRIGHT) return grid;
  const out = new Float64Array(SIZE * SIZE);
  const half = (SIZE - 1) / 2;
  for (let v = 0; v < SIZE; v++) {
    for (let u = 0; u < SIZE; u++) {
      const cu = u - half;
      const cv = v - half;
      const x = Math.round(cu * orientation.x[0] + cv * orientation.y[0] + half);
      const y = Math.round(cu * orientation.x[1] + cv * orientation.y[1] + half);
      out[v * SIZE + u] = grid[y * SIZE + x] as number;
    }
  }
  return out;
}

function lumaGrid(luma: Float32Array, width: number, height: number): Float64Array {
  const grid = new Float64Array(SIZE * SIZE);
  const counts = new Float64Array(SIZE * SIZE);
  for (let y = 0; y < height; y++) {
    const row = Math.min(SIZE - 1, Math.floor((y * SIZE) / height)) * SIZE;
    for (let x = 0; x < width; x++) {
      const cell = row + Math.min(SIZE - 1, Math.floor((x * SIZE) / width));
      grid[cell] = (grid[cell] as number) + (luma[y * width + x] as number);
      counts[cell] = (counts[cell] as number) + 1;
    }
  }
  for (let i = 0; i < grid.length; i++)
    grid[i] = (grid[i] as number) / Math.max(1, counts[i] as number);
  return grid;
}

function hashGrid(grid: Float64Array): string {
  // Separable 2-D DCT, low frequencies only: rows first, then columns.
  const rows = new Float64Array(SIZE * LOW);
  for (let y = 0; y < SIZE; y++) {
    for (let k = 0; k < LOW; k++) {
      const basis = BASIS[k] as Float64Array;
      let sum = 0;
      for (let x = 0; x < SIZE; x++) sum += (grid[y * SIZE + x] as number) * (basis[x] as number);
      rows[y * LOW + k] = sum;
    }
  }
  const coefficients = new Float64Array(LOW * LOW);
  for (let v = 0; v < LOW; v++) {
    const basis = BASIS[v] as Float64Array;
    for (let u = 0; u < LOW; u++) {
      let sum = 0;
      for (let y = 0; y < SIZE; y++) sum += (rows[y * LOW + u] as number) * (basis[y] as number);
      coefficients[v * LOW + u] = sum;
    }
  }
  // Each coefficient against the median of all but the DC term (the overall brightness).
  const median = [...coefficients.slice(1)].sort((a, b) => a - b)[31] as number;
  let bits = 0n;
  for (const coefficient of coefficients) bits = (bits << 1n) | (coefficient > median ? 1n : 0n);
  return bits.toString(16).padStart(16, '0');
}

/** How many of the 64 bits differ. */
export function fingerprintDistance(a: string, b: string): number {
  let diff = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let count = 0;
  while (diff > 0n) {
    count += Number(diff & 1n);
    diff >>= 1n;
  }
  return count;
}
