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

/**
 * Gaussian-weighted local mean over the 'valid' region (no padding), at every `stride`-th window
 * position in each direction: ceil((w-10)/stride) x ceil((h-10)/stride) values.
 */
function gaussianValid(src: Float32Array, width: number, height: number, stride = 1): Float32Array {
  const ow = Math.ceil((width - 10) / stride);
  const oh = Math.ceil((height - 10) / stride);
  const tmp = new Float32Array(ow * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let i = 0; i < ow; i++) {
      const x = i * stride;
      let sum = 0;
      for (let k = 0; k < 11; k++) sum += (KERNEL[k] as number) * (src[row + x + k] as number);
      tmp[y * ow + i] = sum;
    }
  }
  const out = new Float32Array(ow * oh);
  for (let j = 0; j < oh; j++) {
    const y = j * stride;
    for (let i = 0; i < ow; i++) {
      let sum = 0;
      for (let k = 0; k < 11; k++) sum += (KERNEL[k] as number) * (tmp[(y + k) * ow + i] as number);
      out[j * ow + i] = sum;
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
 * window in each direction, an estimate about stride^2 times cheaper.
 */
export function ssimAgainst(reference: RasterImage, stride = 1): (image: RasterImage) => number {
  const { width, height } = reference;
  const x = luma(reference);
  const mx = gaussianValid(x, width, height, stride);
  const sxx = gaussianValid(
    x.map((v) => v * v),
    width,
    height,
    stride,
  );
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  return (image) => {
    assertSameShape(reference, image);
    const y = luma(image);
    const yy = new Float32Array(y.length);
    const xy = new Float32Array(y.length);
    for (let i = 0; i < y.length; i++) {
      const yv = y[i] as number;
      yy[i] = yv * yv;
      xy[i] = (x[i] as number) * yv;
    }
    const my = gaussianValid(y, width, height, stride);
    const syy = gaussianValid(yy, width, height, stride);
    const sxy = gaussianValid(xy, width, height, stride);
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
