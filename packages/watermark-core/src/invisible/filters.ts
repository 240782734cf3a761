// Small separable filters on Float32Array images (row-major). Box filters use running sums so
// their cost does not depend on the radius; edges are handled by clamping to the border.

/** Mean over a (2r+1)^2 box, written to a new array. */
export function boxBlur(
  src: Float32Array,
  width: number,
  height: number,
  radius: number,
): Float32Array {
  const tmp = new Float32Array(src.length);
  const out = new Float32Array(src.length);
  const norm = 1 / (2 * radius + 1);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let sum = 0;
    for (let k = -radius; k <= radius; k++) sum += src[row + clamp(k, width)] as number;
    for (let x = 0; x < width; x++) {
      tmp[row + x] = sum * norm;
      sum +=
        (src[row + clamp(x + radius + 1, width)] as number) -
        (src[row + clamp(x - radius, width)] as number);
    }
  }
  for (let x = 0; x < width; x++) {
    let sum = 0;
    for (let k = -radius; k <= radius; k++) sum += tmp[clamp(k, height) * width + x] as number;
    for (let y = 0; y < height; y++) {
      out[y * width + x] = sum * norm;
      sum +=
        (tmp[clamp(y + radius + 1, height) * width + x] as number) -
        (tmp[clamp(y - radius, height) * width + x] as number);
    }
  }
  return out;
}

function clamp(i: number, n: number): number {
  return i < 0 ? 0 : i >= n ? n - 1 : i;
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
): Float32Array {
  const smooth = boxBlur(boxBlur(src, width, height, radius), width, height, radius);
  const out = new Float32Array(src.length);
  for (let i = 0; i < src.length; i++) out[i] = (src[i] as number) - (smooth[i] as number);
  return out;
}

/** Local root-mean-square of `src` over a box of radius `radius`. */
export function localRms(
  src: Float32Array,
  width: number,
  height: number,
  radius: number,
): Float32Array {
  const squared = new Float32Array(src.length);
  for (let i = 0; i < src.length; i++) squared[i] = (src[i] as number) ** 2;
  const mean = boxBlur(squared, width, height, radius);
  // Running sums can leave tiny negative means where the input is zero.
  for (let i = 0; i < mean.length; i++) mean[i] = Math.sqrt(Math.max(0, mean[i] as number));
  return mean;
}
