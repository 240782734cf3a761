// Small separable filters on Float32Array images (row-major). Box filters use running sums so
// their cost does not depend on the radius; edges are handled by clamping to the border.

/**
 * Mean over a (2r+1)^2 box, written to `out` (by default a new array; it may be `src` itself, which
 * the first pass has read whole into `tmp` before the second writes).
 */
export function boxBlur(
  src: Float32Array,
  width: number,
  height: number,
  radius: number,
  out: Float32Array = new Float32Array(src.length),
  tmp: Float32Array = new Float32Array(src.length),
): Float32Array {
  const norm = 1 / (2 * radius + 1);
  const last = width - 1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let sum = 0;
    for (let k = -radius; k <= radius; k++)
      sum += src[row + Math.min(last, Math.max(0, k))] as number;
    for (let x = 0; x < width; x++) {
      tmp[row + x] = sum * norm;
      const add = x + radius + 1;
      const drop = x - radius;
      sum += (src[row + Math.min(add, last)] as number) - (src[row + Math.max(drop, 0)] as number);
    }
  }
  // Vertical pass row by row with one running sum per column, so memory is read in order.
  const sums = new Float64Array(width);
  for (let k = -radius; k <= radius; k++) {
    const row = Math.min(height - 1, Math.max(0, k)) * width;
    for (let x = 0; x < width; x++) sums[x] = (sums[x] as number) + (tmp[row + x] as number);
  }
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const addRow = Math.min(height - 1, y + radius + 1) * width;
    const dropRow = Math.max(0, y - radius) * width;
    for (let x = 0; x < width; x++) {
      const sum = sums[x] as number;
      out[row + x] = sum * norm;
      sums[x] = sum + (tmp[addRow + x] as number) - (tmp[dropRow + x] as number);
    }
  }
  return out;
}

/**
 * The image minus its local mean (two box passes of radius `radius`, close to a Gaussian): the
 * host image's smooth content is removed and the fine structure where the mark lives is kept.
 */
export function highPass(
  src: Float32Array,
  width: number,
  height: number,
  radius: number,
  scratch: Float32Array = new Float32Array(src.length),
): Float32Array {
  const out = boxBlur(src, width, height, radius, new Float32Array(src.length), scratch);
  boxBlur(out, width, height, radius, out, scratch);
  for (let i = 0; i < src.length; i++) out[i] = (src[i] as number) - (out[i] as number);
  return out;
}

/** Local root-mean-square of `src` over a box of radius `radius`. */
export function localRms(
  src: Float32Array,
  width: number,
  height: number,
  radius: number,
  scratch: Float32Array = new Float32Array(src.length),
): Float32Array {
  const mean = new Float32Array(src.length);
  for (let i = 0; i < src.length; i++) mean[i] = (src[i] as number) ** 2;
  boxBlur(mean, width, height, radius, mean, scratch);
  // Running sums can leave tiny negative means where the input is zero.
  for (let i = 0; i < mean.length; i++) mean[i] = Math.sqrt(Math.max(0, mean[i] as number));
  return mean;
}

/** The image at half its width and height (odd edges dropped), each value the mean of a 2x2 block. */
export function halve(src: Float32Array, width: number, height: number): Float32Array {
  const w = width >> 1;
  const h = height >> 1;
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const top = 2 * y * width;
    const bottom = top + width;
    for (let x = 0; x < w; x++) {
      const at = 2 * x;
      out[y * w + x] =
        ((src[top + at] as number) +
          (src[top + at + 1] as number) +
          (src[bottom + at] as number) +
          (src[bottom + at + 1] as number)) *
        0.25;
    }
  }
  return out;
}
