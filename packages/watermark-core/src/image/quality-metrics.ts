// Fidelity of a marked image to its original: PSNR over all colour samples and SSIM on luma
// (Wang et al. 2004: 11x11 Gaussian window, sigma 1.5, K1 = 0.01, K2 = 0.03, at full resolution,
// no downsampling). Used by the evaluation suite and tests; inputs are 8-bit interleaved pixels.

export interface RasterImage {
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
  readonly channels: number;
}

function assertSameShape(a: RasterImage, b: RasterImage): void {
  if (a.width !== b.width || a.height !== b.height || a.channels !== b.channels) {
    throw new RangeError(
      `images differ in shape: ${a.width}x${a.height}x${a.channels} vs ${b.width}x${b.height}x${b.channels}`,
    );
  }
}

/** Peak signal-to-noise ratio in dB over every colour sample (alpha excluded when `hasAlpha`). */
export function psnr(a: RasterImage, b: RasterImage, hasAlpha = false): number {
  return psnrOf(meanSquaredError(a, b, hasAlpha));
}

/** PSNR in dB of 8-bit samples whose mean squared error is `mse`. */
export function psnrOf(mse: number): number {
  return mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse);
}

/** The mean squared error of 8-bit samples at `psnr` dB (psnrOf's inverse). */
export function mseAt(psnr: number): number {
  return (255 * 255) / 10 ** (psnr / 10);
}

/** Mean squared difference over every colour sample (alpha excluded when `hasAlpha`). */
export function meanSquaredError(a: RasterImage, b: RasterImage, hasAlpha = false): number {
  assertSameShape(a, b);
  const { data: x, channels } = a;
  const y = b.data;
  let sum = 0;
  if (!hasAlpha) {
    for (let i = 0; i < x.length; i++) {
      const d = (x[i] as number) - (y[i] as number);
      sum += d * d;
    }
    return sum / x.length;
  }
  const colour = channels - 1;
  for (let p = 0; p < x.length; p += channels) {
    for (let c = 0; c < colour; c++) {
      const d = (x[p + c] as number) - (y[p + c] as number);
      sum += d * d;
    }
  }
  return sum / ((x.length / channels) * colour);
}

function luma(image: RasterImage): Float32Array {
  const n = image.width * image.height;
  const out = new Float32Array(n);
  const { data, channels } = image;
  if (channels < 3) {
    for (let i = 0, p = 0; i < n; i++, p += channels) out[i] = data[p] as number;
    return out;
  }
  for (let i = 0, p = 0; i < n; i++, p += channels) {
    out[i] =
      0.299 * (data[p] as number) +
      0.587 * (data[p + 1] as number) +
      0.114 * (data[p + 2] as number);
  }
  return out;
}

const KERNEL = (() => {
  const k = new Float32Array(11);
  let sum = 0;
  for (let i = 0; i < 11; i++) {
    k[i] = Math.exp(-((i - 5) ** 2) / (2 * 1.5 * 1.5));
    sum += k[i] as number;
  }
  return k.map((v) => v / sum);
})();
/** The kernel's six distinct weights (it is symmetric, centre last), for the unrolled taps. */
const [K0 = 0, K1 = 0, K2 = 0, K3 = 0, K4 = 0, K5 = 0] = KERNEL;

/**
 * The kernel applied at `v[at]`, `v[at + step]`, ... `v[at + 10 * step]` (along a row with step 1,
 * down a column with the row length). Symmetric: six weights, the taps unrolled.
 */
function tap(v: Float32Array, at: number, step = 1): number {
  return (
    K0 * ((v[at] as number) + (v[at + 10 * step] as number)) +
    K1 * ((v[at + step] as number) + (v[at + 9 * step] as number)) +
    K2 * ((v[at + 2 * step] as number) + (v[at + 8 * step] as number)) +
    K3 * ((v[at + 3 * step] as number) + (v[at + 7 * step] as number)) +
    K4 * ((v[at + 4 * step] as number) + (v[at + 6 * step] as number)) +
    K5 * (v[at + 5 * step] as number)
  );
}

/**
 * Gaussian sums along each row of the 'valid' region at every `stride`-th column (row-major,
 * ceil((width-10)/stride) per row) of a, of a^2, and of a*b when `b` is given.
 */
function rowSums(
  a: Float32Array,
  b: Float32Array | null,
  width: number,
  height: number,
  stride: number,
): { sa: Float32Array; saa: Float32Array; sab: Float32Array | null } {
  const ow = Math.ceil((width - 10) / stride);
  const sa = new Float32Array(ow * height);
  const saa = new Float32Array(ow * height);
  const sab = b === null ? null : new Float32Array(ow * height);
  const squares = new Float32Array(width);
  const products = new Float32Array(width);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const v = a[row + x] as number;
      squares[x] = v * v;
      if (b !== null) products[x] = v * (b[row + x] as number);
    }
    for (let i = 0, x = 0; i < ow; i++, x += stride) {
      sa[y * ow + i] = tap(a, row + x);
      saa[y * ow + i] = tap(squares, x);
      if (sab !== null) sab[y * ow + i] = tap(products, x);
    }
  }
  return { sa, saa, sab };
}

/**
 * The Gaussian-weighted local means of rowSums' output at every `stride`-th row: ceil((w-10)/stride)
 * x ceil((h-10)/stride) values.
 */
function columnSums(
  rows: Float32Array,
  width: number,
  height: number,
  stride: number,
): Float32Array {
  const ow = Math.ceil((width - 10) / stride);
  const oh = Math.ceil((height - 10) / stride);
  const out = new Float32Array(ow * oh);
  for (let j = 0; j < oh; j++) {
    const top = j * stride * ow;
    for (let i = 0; i < ow; i++) {
      out[j * ow + i] = tap(rows, top + i, ow);
    }
  }
  return out;
}

/** Mean structural similarity of the two images' luma. */
export function ssim(a: RasterImage, b: RasterImage): number {
  return ssimAgainst(a)(b);
}

/**
 * SSIM against a fixed reference image, its local statistics computed once: for comparing several
 * candidates with the same original. With `stride` > 1 the mean is taken over every stride-th
 * window in each direction, an estimate about stride^2 times cheaper in its last step (the row
 * sums still visit every pixel).
 */
export function ssimAgainst(reference: RasterImage, stride = 1): (image: RasterImage) => number {
  const { width, height } = reference;
  const x = luma(reference);
  const ref = rowSums(x, null, width, height, stride);
  const mx = columnSums(ref.sa, width, height, stride);
  const sxx = columnSums(ref.saa, width, height, stride);
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  return (image) => {
    assertSameShape(reference, image);
    const sums = rowSums(luma(image), x, width, height, stride);
    const my = columnSums(sums.sa, width, height, stride);
    const syy = columnSums(sums.saa, width, height, stride);
    const sxy = columnSums(sums.sab as Float32Array, width, height, stride);
    let total = 0;
    for (let i = 0; i < mx.length; i++) {
      const ux = mx[i] as number;
      const uy = my[i] as number;
      const vx = (sxx[i] as number) - ux * ux;
      const vy = (syy[i] as number) - uy * uy;
      const cxy = (sxy[i] as number) - ux * uy;
      total += ((2 * ux * uy + c1) * (2 * cxy + c2)) / ((ux * ux + uy * uy + c1) * (vx + vy + c2));
    }
    return total / mx.length;
  };
}
