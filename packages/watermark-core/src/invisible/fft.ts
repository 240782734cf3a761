// Radix-2 complex FFT on split real/imaginary Float64Arrays: the synchronisation layer needs the
// power spectrum of a 512x512 residual and a few 128x128 correlations per image, so a plain
// iterative Cooley-Tukey with cached twiddles is fast enough and has no dependency. Columns are
// transformed a whole row of butterflies at a time, which keeps memory access sequential.

interface Plan {
  /** Twiddles of every stage, stage with half-size h at offset h - 1 (cos, and -sin). */
  readonly cos: Float64Array;
  readonly sin: Float64Array;
  readonly reversed: Uint32Array;
}

const plans = new Map<number, Plan>();

function plan(n: number): Plan {
  const cached = plans.get(n);
  if (cached) return cached;
  if (n < 2 || (n & (n - 1)) !== 0) throw new RangeError(`FFT size ${n} is not a power of two`);
  const cos = new Float64Array(n - 1);
  const sin = new Float64Array(n - 1);
  for (let half = 1; half < n; half *= 2) {
    for (let k = 0; k < half; k++) {
      cos[half - 1 + k] = Math.cos((Math.PI * k) / half);
      sin[half - 1 + k] = -Math.sin((Math.PI * k) / half);
    }
  }
  const bits = Math.log2(n);
  const reversed = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    let r = 0;
    for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
    reversed[i] = r;
  }
  const created = { cos, sin, reversed };
  plans.set(n, created);
  return created;
}

/** In-place FFT of `n` contiguous complex values from `offset`; `inverse` does not scale. */
export function fft1d(
  re: Float64Array,
  im: Float64Array,
  n: number,
  inverse = false,
  offset = 0,
): void {
  const { cos, sin, reversed } = plan(n);
  for (let i = 0; i < n; i++) {
    const j = reversed[i] as number;
    if (j > i) {
      const a = offset + i;
      const b = offset + j;
      const tr = re[a] as number;
      re[a] = re[b] as number;
      re[b] = tr;
      const ti = im[a] as number;
      im[a] = im[b] as number;
      im[b] = ti;
    }
  }
  const sign = inverse ? -1 : 1;
  for (let half = 1; half < n; half *= 2) {
    const size = half * 2;
    for (let k = 0; k < half; k++) {
      const wr = cos[half - 1 + k] as number;
      const wi = sign * (sin[half - 1 + k] as number);
      for (let start = offset + k; start < offset + n; start += size) {
        const b = start + half;
        const br = re[b] as number;
        const bi = im[b] as number;
        const xr = br * wr - bi * wi;
        const xi = br * wi + bi * wr;
        const ar = re[start] as number;
        const ai = im[start] as number;
        re[start] = ar + xr;
        im[start] = ai + xi;
        re[b] = ar - xr;
        im[b] = ai - xi;
      }
    }
  }
}

/** FFT along columns of a row-major `width` x `height` array, butterflies applied to whole rows. */
function fftColumns(
  re: Float64Array,
  im: Float64Array,
  width: number,
  height: number,
  inverse: boolean,
): void {
  const { cos, sin, reversed } = plan(height);
  for (let i = 0; i < height; i++) {
    const j = reversed[i] as number;
    if (j > i) {
      const a = i * width;
      const b = j * width;
      for (let x = 0; x < width; x++) {
        const tr = re[a + x] as number;
        re[a + x] = re[b + x] as number;
        re[b + x] = tr;
        const ti = im[a + x] as number;
        im[a + x] = im[b + x] as number;
        im[b + x] = ti;
      }
    }
  }
  const sign = inverse ? -1 : 1;
  for (let half = 1; half < height; half *= 2) {
    const size = half * 2;
    for (let k = 0; k < half; k++) {
      const wr = cos[half - 1 + k] as number;
      const wi = sign * (sin[half - 1 + k] as number);
      for (let start = k; start < height; start += size) {
        const a = start * width;
        const b = (start + half) * width;
        for (let x = 0; x < width; x++) {
          const br = re[b + x] as number;
          const bi = im[b + x] as number;
          const xr = br * wr - bi * wi;
          const xi = br * wi + bi * wr;
          const ar = re[a + x] as number;
          const ai = im[a + x] as number;
          re[a + x] = ar + xr;
          im[a + x] = ai + xi;
          re[b + x] = ar - xr;
          im[b + x] = ai - xi;
        }
      }
    }
  }
}

/** In-place 2D FFT of a row-major `width` x `height` complex array (both powers of two). */
export function fft2d(
  re: Float64Array,
  im: Float64Array,
  width: number,
  height: number,
  inverse = false,
): void {
  for (let y = 0; y < height; y++) fft1d(re, im, width, inverse, y * width);
  fftColumns(re, im, width, height, inverse);
}
