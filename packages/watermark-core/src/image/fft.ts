// Radix-2 complex FFT on split real/imaginary Float64Arrays: the synchronisation layer needs the
// power spectrum of a 512x512 residual and many 64x64 correlations per image, so a plain
// iterative Cooley-Tukey with cached twiddles is fast enough and has no dependency. Columns are
// transformed a whole row of butterflies at a time, which keeps memory access sequential. The
// 512x512 transforms know more about their data (a real residual with rows of zero padding, a
// spectrum symmetric about the origin), so two variants compute only half of each pass and fill
// the other half by that symmetry.

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

/**
 * FFT along the first `columns` columns of a row-major `width` x `height` array, butterflies
 * applied to whole rows.
 */
function fftColumns(
  re: Float64Array,
  im: Float64Array,
  width: number,
  height: number,
  inverse: boolean,
  columns = width,
): void {
  const { cos, sin, reversed } = plan(height);
  for (let i = 0; i < height; i++) {
    const j = reversed[i] as number;
    if (j > i) {
      const a = i * width;
      const b = j * width;
      for (let x = 0; x < columns; x++) {
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
        for (let x = 0; x < columns; x++) {
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

/**
 * Forward 2D FFT of real data (`re`; `im` is overwritten) whose rows outside [fromRow, toRow) are
 * zero. Two real rows go through one complex transform (the second as the imaginary part) and are
 * separated by their spectra's symmetry; columns are transformed only up to width / 2, and the
 * other half of the spectrum is filled from X(-u, -v) = conj X(u, v). About 0.4 of fft2d's work
 * for a window padded to a third.
 */
export function realFft2d(
  re: Float64Array,
  im: Float64Array,
  width: number,
  height: number,
  fromRow = 0,
  toRow = height,
): void {
  im.fill(0);
  const rowRe = new Float64Array(width);
  const rowIm = new Float64Array(width);
  for (let y = fromRow; y < toRow; y += 2) {
    const a = y * width;
    const b = a + width;
    const pair = y + 1 < toRow;
    rowRe.set(re.subarray(a, a + width));
    if (pair) rowIm.set(re.subarray(b, b + width));
    else rowIm.fill(0);
    fft1d(rowRe, rowIm, width);
    for (let k = 0; k <= width / 2; k++) {
      const m = k === 0 ? 0 : width - k;
      const zr = rowRe[k] as number;
      const zi = rowIm[k] as number;
      const wr = rowRe[m] as number;
      const wi = rowIm[m] as number;
      // First row: (Z(k) + conj Z(-k)) / 2; second: (Z(k) - conj Z(-k)) / 2i.
      re[a + k] = (zr + wr) / 2;
      im[a + k] = (zi - wi) / 2;
      if (pair) {
        re[b + k] = (zi + wi) / 2;
        im[b + k] = (wr - zr) / 2;
      }
    }
  }
  const columns = width / 2 + 1;
  fftColumns(re, im, width, height, false, columns);
  fillFromMirror(re, im, width, height, columns, -1);
}

/**
 * Inverse 2D FFT (unscaled, in place) of a spectrum symmetric about the origin, X(-u, -v) =
 * X(u, v), as a power spectrum is: its transform has the same symmetry, so rows are transformed
 * only up to height / 2 and columns up to width / 2, each other half filled by mirroring. Half of
 * fft2d's work.
 */
export function evenInverseFft2d(
  re: Float64Array,
  im: Float64Array,
  width: number,
  height: number,
): void {
  const rows = height / 2 + 1;
  for (let y = 0; y < rows; y++) fft1d(re, im, width, true, y * width);
  // Row -v of the row transforms is row v reversed: R(-v, -x) = R(v, x).
  for (let y = rows; y < height; y++) {
    const row = y * width;
    const mirror = (height - y) * width;
    re[row] = re[mirror] as number;
    im[row] = im[mirror] as number;
    for (let x = 1; x < width; x++) {
      re[row + x] = re[mirror + width - x] as number;
      im[row + x] = im[mirror + width - x] as number;
    }
  }
  const columns = width / 2 + 1;
  fftColumns(re, im, width, height, true, columns);
  fillFromMirror(re, im, width, height, columns, 1);
}

/**
 * Columns from `columns` on, from their mirror image through the origin: X(x, y) = X(-x, -y),
 * with the imaginary part times `imaginarySign` (-1: the conjugate, as a real input's spectrum).
 */
function fillFromMirror(
  re: Float64Array,
  im: Float64Array,
  width: number,
  height: number,
  columns: number,
  imaginarySign: 1 | -1,
): void {
  for (let y = 0; y < height; y++) {
    const mirror = ((height - y) % height) * width;
    const row = y * width;
    for (let x = columns; x < width; x++) {
      re[row + x] = re[mirror + width - x] as number;
      im[row + x] = imaginarySign * (im[mirror + width - x] as number);
    }
  }
}
