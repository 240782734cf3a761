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
  assertSameShape(a, b);
  const colour = hasAlpha ? a.channels - 1 : a.channels;
  let sum = 0;
  let count = 0;
  for (let p = 0; p < a.data.length; p += a.channels) {
    for (let c = 0; c < colour; c++) {
      const d = (a.data[p + c] as number) - (b.data[p + c] as number);
      sum += d * d;
    }
    count += colour;
  }
  const mse = sum / count;
  return mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse);
}

function luma(image: RasterImage): Float32Array {
  const n = image.width * image.height;
  const out = new Float32Array(n);
  const { data, channels } = image;
  for (let i = 0, p = 0; i < n; i++, p += channels) {
    out[i] =
      channels >= 3
        ? 0.299 * (data[p] as number) +
          0.587 * (data[p + 1] as number) +
          0.114 * (data[p + 2] as number)
        : (data[p] as number);
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

/** Gaussian-weighted local mean over the 'valid' region (no padding): (w-10) x (h-10). */
function gaussianValid(src: Float32Array, width: number, height: number): Float32Array {
  const ow = width - 10;
  const oh = height - 10;
  const tmp = new Float32Array(ow * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < ow; x++) {
      let s = 0;
      for (let k = 0; k < 11; k++) s += (KERNEL[k] as number) * (src[row + x + k] as number);
      tmp[y * ow + x] = s;
    }
  }
  const out = new Float32Array(ow * oh);
  for (let y = 0; y < oh; y++) {
    for (let x = 0; x < ow; x++) {
      let s = 0;
      for (let k = 0; k < 11; k++) s += (KERNEL[k] as number) * (tmp[(y + k) * ow + x] as number);
      out[y * ow + x] = s;
    }
  }
  return out;
}

/** Mean structural similarity of the two images' luma. */
export function ssim(a: RasterImage, b: RasterImage): number {
  assertSameShape(a, b);
  const { width, height } = a;
  const x = luma(a);
  const y = luma(b);
  const n = width * height;
  const xx = new Float32Array(n);
  const yy = new Float32Array(n);
  const xy = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const xv = x[i] as number;
    const yv = y[i] as number;
    xx[i] = xv * xv;
    yy[i] = yv * yv;
    xy[i] = xv * yv;
  }
  const mx = gaussianValid(x, width, height);
  const my = gaussianValid(y, width, height);
  const sxx = gaussianValid(xx, width, height);
  const syy = gaussianValid(yy, width, height);
  const sxy = gaussianValid(xy, width, height);
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
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
}
