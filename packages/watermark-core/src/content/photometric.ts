// What a copy may do to the whole picture's tones and colours without changing what it shows
// (brightness, contrast, curves, saturation, a tint, grey): fitted over the whole copy, robustly,
// so a local edit does not bend the fit and stays visible in the residual (and fitted again
// without the edits found, to draw where they are).
import { selectInPlace } from './select.ts';

/**
 * Least squares of y ~ X * beta with Huber weights, then biweights when `rejecting` (IRLS); X is
 * row-major, `terms` per row.
 */
function robustFit(
  design: Float64Array,
  target: Float64Array,
  terms: number,
  rejecting: boolean,
): Float64Array {
  const iterations = HUBER_ITERATIONS + (rejecting ? REJECTING_ITERATIONS : 0);
  const rows = target.length;
  const weights = new Float64Array(rows).fill(1);
  let beta: Float64Array = new Float64Array(terms);
  for (let iteration = 0; iteration < iterations; iteration++) {
    const normal = new Float64Array(terms * terms);
    const rhs = new Float64Array(terms);
    for (let r = 0; r < rows; r++) {
      const w = weights[r] as number;
      if (w === 0) continue;
      const base = r * terms;
      // Most terms of a row are zero (two tone hats of five are not): they add nothing.
      for (let i = 0; i < terms; i++) {
        const di = design[base + i] as number;
        if (di === 0) continue;
        const xi = di * w;
        rhs[i] = (rhs[i] as number) + xi * (target[r] as number);
        for (let j = 0; j <= i; j++) {
          const dj = design[base + j] as number;
          if (dj !== 0) normal[i * terms + j] = (normal[i * terms + j] as number) + xi * dj;
        }
      }
    }
    for (let i = 0; i < terms; i++) {
      for (let j = 0; j < i; j++) normal[j * terms + i] = normal[i * terms + j] as number;
      normal[i * terms + i] = (normal[i * terms + i] as number) + 1e-6;
    }
    beta = solve(normal, rhs, terms);
    // Huber weights from the residuals' robust scale.
    const residuals = new Float64Array(rows);
    for (let r = 0; r < rows; r++) {
      let predicted = 0;
      for (let i = 0; i < terms; i++) {
        const d = design[r * terms + i] as number;
        if (d !== 0) predicted += d * (beta[i] as number);
      }
      residuals[r] = Math.abs((target[r] as number) - predicted);
    }
    const scale = Math.max(0.5, 1.4826 * median(residuals));
    if (iteration < HUBER_ITERATIONS - 1) {
      const limit = 1.5 * scale;
      for (let r = 0; r < rows; r++) {
        const e = residuals[r] as number;
        weights[r] = e <= limit ? 1 : limit / e;
      }
    } else {
      // Tukey's biweight: samples far from the fit weigh nothing.
      const limit = 4.685 * scale;
      for (let r = 0; r < rows; r++) {
        const u = (residuals[r] as number) / limit;
        weights[r] = u >= 1 ? 0 : (1 - u * u) ** 2;
      }
    }
  }
  return beta;
}

/**
 * robustFit's iterations: Huber weights, then (when rejecting) biweights. Huber weights only
 * shrink far samples, and a region of the copy recoloured as a whole pulls the map towards its
 * colour; biweights give them none, but also drop a small object's honest colour shift (a
 * reference's JPEG smears a small badge's colour), so they are for a fit with the edits found
 * already left out.
 */
const HUBER_ITERATIONS = 3;
const REJECTING_ITERATIONS = 2;

/** Gaussian elimination with partial pivoting (small systems only). */
function solve(matrix: Float64Array, rhs: Float64Array, n: number): Float64Array {
  const a = Float64Array.from(matrix);
  const b = Float64Array.from(rhs);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) {
      if (Math.abs(a[r * n + col] as number) > Math.abs(a[pivot * n + col] as number)) pivot = r;
    }
    if (pivot !== col) {
      for (let k = 0; k < n; k++) {
        const t = a[col * n + k] as number;
        a[col * n + k] = a[pivot * n + k] as number;
        a[pivot * n + k] = t;
      }
      const t = b[col] as number;
      b[col] = b[pivot] as number;
      b[pivot] = t;
    }
    const p = a[col * n + col] as number;
    if (Math.abs(p) < 1e-12) continue;
    for (let r = col + 1; r < n; r++) {
      const f = (a[r * n + col] as number) / p;
      if (f === 0) continue;
      for (let k = col; k < n; k++)
        a[r * n + k] = (a[r * n + k] as number) - f * (a[col * n + k] as number);
      b[r] = (b[r] as number) - f * (b[col] as number);
    }
  }
  const x = new Float64Array(n);
  for (let r = n - 1; r >= 0; r--) {
    let sum = b[r] as number;
    for (let k = r + 1; k < n; k++) sum -= (a[r * n + k] as number) * (x[k] as number);
    const p = a[r * n + r] as number;
    x[r] = Math.abs(p) < 1e-12 ? 0 : sum / p;
  }
  return x;
}

/** The median (the upper one of an even count), by selection: no full sort. */
export function median(values: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) return 0;
  const a = Float64Array.from(values);
  const k = n >> 1;
  let low = 0;
  let high = n - 1;
  while (low < high) {
    const pivot = a[(low + high) >> 1] as number;
    let i = low;
    let j = high;
    while (i <= j) {
      while ((a[i] as number) < pivot) i++;
      while ((a[j] as number) > pivot) j--;
      if (i <= j) {
        const t = a[i] as number;
        a[i] = a[j] as number;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) high = j;
    else if (k >= i) low = i;
    else break;
  }
  return a[k] as number;
}

/** Every FIT_STRIDE-th pixel, where valid, fits the global maps: thousands of samples for a few dozen terms. */
const FIT_STRIDE = 17;

/** Every `stride`-th valid pixel: enough to fit a handful of terms. */
function sampleIndices(valid: Uint8Array, stride: number): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < valid.length; i += stride) if (valid[i] === 1) out.push(i);
  return Int32Array.from(out);
}

/** Tone bins of the luma curve. */
const TONE_BINS = 32;

/**
 * The reference's luma mapped to the copy's tones: for each band of tones, the median the copy
 * shows there, interpolated between bands (brightness, contrast, gamma, any tone curve, and the
 * clipping a brightened copy has). A median per band is what the honest majority of the pixels
 * says; bands with too few pixels follow their neighbours.
 */
export function matchLuma(
  reference: Float32Array,
  copy: Float32Array,
  valid: Uint8Array,
): Float32Array {
  // Every other valid pixel's copy value, grouped by its band (a counting sort).
  const starts = new Int32Array(TONE_BINS + 1);
  for (let i = 0; i < valid.length; i += 2) {
    if (valid[i] === 0) continue;
    const next = toneBin(reference[i] as number) + 1;
    starts[next] = (starts[next] as number) + 1;
  }
  for (let bin = 0; bin < TONE_BINS; bin++)
    starts[bin + 1] = (starts[bin + 1] as number) + (starts[bin] as number);
  const values = new Float32Array(starts[TONE_BINS] as number);
  const fill = Int32Array.from(starts);
  for (let i = 0; i < valid.length; i += 2) {
    if (valid[i] === 0) continue;
    const bin = toneBin(reference[i] as number);
    values[fill[bin] as number] = copy[i] as number;
    fill[bin] = (fill[bin] as number) + 1;
  }
  const centres: number[] = [];
  const levels: number[] = [];
  for (let bin = 0; bin < TONE_BINS; bin++) {
    const start = starts[bin] as number;
    const n = (starts[bin + 1] as number) - start;
    if (n < 8) continue;
    centres.push(((bin + 0.5) * 256) / TONE_BINS);
    // The median, as median() takes it (the upper one of an even count).
    levels.push(selectInPlace(values.subarray(start, start + n), n >> 1));
  }
  const out = new Float32Array(reference.length);
  if (centres.length === 0) return out;
  for (let i = 0; i < reference.length; i++)
    out[i] = interpolate(centres, levels, reference[i] as number);
  return out;
}

function toneBin(tone: number): number {
  return Math.min(TONE_BINS - 1, Math.max(0, Math.floor((tone / 256) * TONE_BINS)));
}

/**
 * The curve at tone x: between bands, linear; beyond the bands seen, it goes on no steeper than
 * the curve does as a whole (the last two bands are the sparsest, and a steep end of them
 * extrapolated to a rare bright object invents a change), within the range luma can take.
 */
function interpolate(xs: readonly number[], ys: readonly number[], x: number): number {
  const last = xs.length - 1;
  if (last === 0) return ys[0] as number;
  const overall = Math.max(
    0,
    ((ys[last] as number) - (ys[0] as number)) / ((xs[last] as number) - (xs[0] as number)),
  );
  const slope = (a: number, b: number) =>
    Math.min(
      overall,
      Math.max(
        0,
        ((ys[b] as number) - (ys[a] as number)) / ((xs[b] as number) - (xs[a] as number)),
      ),
    );
  if (x <= (xs[0] as number)) {
    return Math.max(0, (ys[0] as number) + slope(0, 1) * (x - (xs[0] as number)));
  }
  if (x >= (xs[last] as number)) {
    return Math.min(255, (ys[last] as number) + slope(last - 1, last) * (x - (xs[last] as number)));
  }
  // The first band at or above x (a binary search: this runs for every pixel).
  let k = 1;
  let high = last;
  while (k < high) {
    const middle = (k + high) >> 1;
    if ((xs[middle] as number) < x) k = middle + 1;
    else high = middle;
  }
  const x0 = xs[k - 1] as number;
  const x1 = xs[k] as number;
  const t = (x - x0) / (x1 - x0);
  return (ys[k - 1] as number) * (1 - t) + (ys[k] as number) * t;
}

/** The reference's colours, prepared once for the maps of a copy's planes to be fitted on. */
export interface ColourMap {
  readonly reference: ColourPlanes;
  readonly valid: Uint8Array;
  /** The sampled pixels and their terms (chromaTerms), row by row. */
  readonly samples: Int32Array;
  readonly design: Float64Array;
  /** Each pixel's bin of the colour table (correctByColour). */
  readonly bins: Int32Array;
  /** The range of the sampled chroma values (matchChroma's `within`). */
  readonly sampled: {
    readonly cb: readonly [number, number];
    readonly cr: readonly [number, number];
  };
  /** Whether the fits give far samples no weight (robustFit's rejecting iterations). */
  readonly rejecting: boolean;
}

type ColourPlanes = {
  readonly y: Float32Array;
  readonly cb: Float32Array;
  readonly cr: Float32Array;
};

/** Each pixel's bin of the colour table (correctByColour). */
export function colourBins(reference: ColourPlanes): Int32Array {
  const bins = new Int32Array(reference.y.length);
  for (let i = 0; i < bins.length; i++) bins[i] = colourBin(reference, i);
  return bins;
}

/** `bins` are the reference's colourBins (shared: only read). */
export function colourMap(
  reference: ColourPlanes,
  valid: Uint8Array,
  bins: Int32Array,
  rejecting = false,
): ColourMap {
  const samples = sampleIndices(valid, FIT_STRIDE);
  const design = new Float64Array(samples.length * CHROMA_TERMS);
  const row = new Float64Array(CHROMA_TERMS);
  samples.forEach((index, r) => {
    chromaTerms(reference, index, row);
    design.set(row, r * CHROMA_TERMS);
  });
  const range = (plane: Float32Array): readonly [number, number] => {
    const values = Float32Array.from(samples, (index) => plane[index] as number).sort();
    if (values.length === 0) return [0, 0];
    const at = (q: number) => values[Math.floor(q * (values.length - 1))] as number;
    return [at(SAMPLED_RANGE), at(1 - SAMPLED_RANGE)];
  };
  return {
    reference,
    valid,
    samples,
    design,
    bins,
    sampled: { cb: range(reference.cb), cr: range(reference.cr) },
    rejecting,
  };
}

/** The sampled colours' range leaves out this share at each end (a few stray pixels). */
const SAMPLED_RANGE = 0.005;

/**
 * matchLuma, then what colour adds: a grey copy made with other weights or in linear light, or a
 * saturation or hue change, moves luma by an amount that depends on each pixel's colour (the
 * chroma terms, then correctByColour).
 */
export function matchLumaAndColour(map: ColourMap, copy: Float32Array): Float32Array {
  const toned = matchLuma(map.reference.y, copy, map.valid);
  const left = new Float32Array(copy.length);
  for (let i = 0; i < copy.length; i++) left[i] = (copy[i] as number) - (toned[i] as number);
  // Within the colours the fit saw: a quadratic fitted on a blue sky says nothing about a kite's
  // red, and must not invent a change of its luma.
  const byColour = matchChroma(map, left, { within: true });
  // Only for a copy whose colours moved its luma (a saturation or hue change, a grey made another
  // way): where the map explains little, it only extrapolates to the colours of small objects.
  const before = median(Float32Array.from(map.samples, (i) => Math.abs(left[i] as number)));
  const after = median(
    Float32Array.from(map.samples, (i) => Math.abs((left[i] as number) - (byColour[i] as number))),
  );
  if (before < MIN_COLOUR_LUMA || after > COLOUR_LUMA_GAIN * before) {
    correctByColour(map, copy, toned);
    return toned;
  }
  for (let i = 0; i < copy.length; i++) toned[i] = (toned[i] as number) + (byColour[i] as number);
  correctByColour(map, copy, toned);
  return toned;
}

/** Luma moved by colour by at least this much (median, levels) is followed by the colour map... */
const MIN_COLOUR_LUMA = 1;
/** ...when the map leaves at most this share of it. */
const COLOUR_LUMA_GAIN = 0.7;

/**
 * A plane of the copy as a smooth function of the reference's colour (chromaTerms): a chroma
 * plane's saturation, hue turns, tints and white balance, or what colour does to luma.
 */
export function matchChroma(
  map: ColourMap,
  copy: Float32Array,
  options: { readonly within?: boolean } = {},
): Float32Array {
  const target = new Float64Array(map.samples.length);
  map.samples.forEach((index, r) => {
    target[r] = copy[index] as number;
  });
  const beta = robustFit(map.design, target, CHROMA_TERMS, map.rejecting);
  const { y, cb, cr } = map.reference;
  const out = new Float32Array(copy.length);
  const last = CHROMA_TONES - 1;
  const quadratic = 3 * CHROMA_TONES;
  const within = options.within === true;
  const [cbLow, cbHigh] = map.sampled.cb;
  const [crLow, crHigh] = map.sampled.cr;
  const qb = beta[quadratic] as number;
  const qr = beta[quadratic + 1] as number;
  const qbr = beta[quadratic + 2] as number;
  // Written out (no closure per pixel, which would cost an allocation each).
  for (let i = 0; i < copy.length; i++) {
    // The terms of chromaTerms, summed directly: two hats are non-zero at any tone.
    const t = Math.min(last, Math.max(0, ((y[i] as number) / 255) * last));
    const k = Math.min(last - 1, Math.floor(t));
    const w = t - k;
    const b =
      (within ? Math.min(cbHigh, Math.max(cbLow, cb[i] as number)) : (cb[i] as number)) / 64;
    const r =
      (within ? Math.min(crHigh, Math.max(crLow, cr[i] as number)) : (cr[i] as number)) / 64;
    const at0 =
      (beta[3 * k] as number) + (beta[3 * k + 1] as number) * b + (beta[3 * k + 2] as number) * r;
    const at1 =
      (beta[3 * k + 3] as number) +
      (beta[3 * k + 4] as number) * b +
      (beta[3 * k + 5] as number) * r;
    out[i] = (1 - w) * at0 + w * at1 + qb * b * b + qr * r * r + qbr * b * r;
  }
  return out;
}

/** Tones at which the chroma map's dependence on luma is pinned (hat functions between them). */
const CHROMA_TONES = 5;
const CHROMA_TERMS = 3 * CHROMA_TONES + 3;

/**
 * In CIELAB a hue turn is a rotation of (a*, b*) and a saturation change a scaling, both linear;
 * a tone change (contrast, gamma, curves on each channel) scales them by an amount that depends
 * on the tone, so each linear term varies with luma, piecewise linearly between CHROMA_TONES
 * tones. The second order follows what the return to sRGB's gamut does to strong colours.
 */
function chromaTerms(reference: ColourPlanes, i: number, out: Float64Array): void {
  const t = Math.min(1, Math.max(0, (reference.y[i] as number) / 255)) * (CHROMA_TONES - 1);
  const b = (reference.cb[i] as number) / 64;
  const r = (reference.cr[i] as number) / 64;
  for (let k = 0; k < CHROMA_TONES; k++) {
    const hat = Math.max(0, 1 - Math.abs(t - k));
    out[3 * k] = hat;
    out[3 * k + 1] = b * hat;
    out[3 * k + 2] = r * hat;
  }
  out[3 * CHROMA_TONES] = b * b;
  out[3 * CHROMA_TONES + 1] = r * r;
  out[3 * CHROMA_TONES + 2] = b * r;
}

/** Standard deviation of a plane over the valid pixels. */
export function spread(plane: Float32Array, valid: Uint8Array): number {
  let n = 0;
  let sum = 0;
  let squares = 0;
  for (let i = 0; i < plane.length; i++) {
    if (valid[i] === 0) continue;
    const v = plane[i] as number;
    n++;
    sum += v;
    squares += v * v;
  }
  if (n === 0) return 0;
  const mean = sum / n;
  return Math.sqrt(Math.max(0, squares / n - mean * mean));
}

/** Side of the tiles over which local tone is fitted (reference pixels). */
const LOCAL_TILE = 24;

/**
 * The fitted luma corrected by a gain and offset that vary smoothly over the picture (fitted per
 * tile, robustly, and interpolated between tile centres): what a grey conversion in linear light,
 * a vignette or a local-contrast filter does to tones that no single curve for the whole picture
 * can follow. A gain and offset cannot make one picture's structure into another's, so an edit's
 * residual stays.
 */
export function matchLocalTone(
  fitted: Float32Array,
  copy: Float32Array,
  valid: Uint8Array,
  width: number,
  height: number,
): Float32Array {
  const columns = Math.max(1, Math.round(width / LOCAL_TILE));
  const rows = Math.max(1, Math.round(height / LOCAL_TILE));
  const gain = new Float64Array(columns * rows).fill(1);
  const offset = new Float64Array(columns * rows);
  for (let ty = 0; ty < rows; ty++) {
    for (let tx = 0; tx < columns; tx++) {
      const x0 = Math.floor((tx * width) / columns);
      const x1 = Math.floor(((tx + 1) * width) / columns);
      const y0 = Math.floor((ty * height) / rows);
      const y1 = Math.floor(((ty + 1) * height) / rows);
      const fit = tileFit(fitted, copy, valid, width, x0, x1, y0, y1);
      gain[ty * columns + tx] = fit.gain;
      offset[ty * columns + tx] = fit.offset;
    }
  }
  const out = new Float32Array(fitted.length);
  // Written out (no closure per pixel, which would cost an allocation each).
  for (let y = 0; y < height; y++) {
    const gy = Math.min(rows - 1, Math.max(0, ((y + 0.5) * rows) / height - 0.5));
    const j0 = Math.floor(gy);
    const j1 = Math.min(rows - 1, j0 + 1);
    const fy = gy - j0;
    for (let x = 0; x < width; x++) {
      const gx = Math.min(columns - 1, Math.max(0, ((x + 0.5) * columns) / width - 0.5));
      const i0 = Math.floor(gx);
      const i1 = Math.min(columns - 1, i0 + 1);
      const fx = gx - i0;
      const a00 = j0 * columns + i0;
      const a01 = j0 * columns + i1;
      const a10 = j1 * columns + i0;
      const a11 = j1 * columns + i1;
      const g =
        ((gain[a00] as number) * (1 - fx) + (gain[a01] as number) * fx) * (1 - fy) +
        ((gain[a10] as number) * (1 - fx) + (gain[a11] as number) * fx) * fy;
      const o =
        ((offset[a00] as number) * (1 - fx) + (offset[a01] as number) * fx) * (1 - fy) +
        ((offset[a10] as number) * (1 - fx) + (offset[a11] as number) * fx) * fy;
      const i = y * width + x;
      out[i] = g * (fitted[i] as number) + o;
    }
  }
  return out;
}

/** Above this median residual after its fit a tile's difference is structure, not tone. */
const STRUCTURE_RESIDUAL = 5;

/**
 * copy ~ gain * fitted + offset over one tile (Huber-weighted). Identity when too few pixels, or
 * when even the fitted tile leaves a large residual: then the tile shows other content (an edit),
 * which a gain and offset must neither absorb nor spread into the neighbouring tiles.
 */
function tileFit(
  fitted: Float32Array,
  copy: Float32Array,
  valid: Uint8Array,
  width: number,
  x0: number,
  x1: number,
  y0: number,
  y1: number,
): { gain: number; offset: number } {
  const identity = { gain: 1, offset: 0 };
  let gain = 1;
  let offset = 0;
  for (let pass = 0; pass < 3; pass++) {
    let sw = 0;
    let sx = 0;
    let sy = 0;
    let sxx = 0;
    let sxy = 0;
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const i = y * width + x;
        if (valid[i] === 0) continue;
        const f = fitted[i] as number;
        const c = copy[i] as number;
        const e = Math.abs(c - (gain * f + offset));
        const w = pass === 0 || e <= 4 ? 1 : 4 / e;
        sw += w;
        sx += w * f;
        sy += w * c;
        sxx += w * f * f;
        sxy += w * f * c;
      }
    }
    if (sw < 32) return identity;
    const variance = sxx - (sx * sx) / sw;
    // A flat tile fixes only the offset; gains stay within what tone curves do.
    gain = variance > sw * 4 ? Math.max(0.1, Math.min(3, (sxy - (sx * sy) / sw) / variance)) : 1;
    offset = (sy - gain * sx) / sw;
  }
  const residuals: number[] = [];
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = y * width + x;
      if (valid[i] === 1)
        residuals.push(Math.abs((copy[i] as number) - (gain * (fitted[i] as number) + offset)));
    }
  }
  return median(residuals) > STRUCTURE_RESIDUAL ? identity : { gain, offset };
}

/** Bins of the colour table: luma, a*, b*. */
const TABLE_L = 6;
const TABLE_AB = 12;
const TABLE_AB_RANGE = 96;
/** A bin's shift is taken when this share of its pixels lies within the allowed spread of it. */
const TABLE_AGREEMENT = 0.8;
const TABLE_MIN_SPREAD = 3;
/** A bin with fewer samples keeps the global map. */
const TABLE_MIN_SAMPLES = 12;

/** The colour table's bin of a reference pixel. */
function colourBin(reference: ColourPlanes, i: number): number {
  const l = Math.min(
    TABLE_L - 1,
    Math.max(0, Math.floor(((reference.y[i] as number) / 256) * TABLE_L)),
  );
  const at = (v: number) =>
    Math.min(
      TABLE_AB - 1,
      Math.max(0, Math.floor(((v + TABLE_AB_RANGE) / (2 * TABLE_AB_RANGE)) * TABLE_AB)),
    );
  return (l * TABLE_AB + at(reference.cb[i] as number)) * TABLE_AB + at(reference.cr[i] as number);
}

/**
 * A fitted map corrected per colour: for each bin of the reference's colours, the median of what
 * the copy shows beyond the map there. A whole-copy colour change is a function of the colour
 * (every pixel of one colour moves alike, wherever it is), so a colour only a small object has is
 * followed too; a region recoloured in place moves some pixels of a colour and not others, and a
 * bin so split keeps the map, leaving the region standing out.
 */
export function correctByColour(map: ColourMap, copy: Float32Array, fitted: Float32Array): void {
  const { bins, valid } = map;
  const binCount = TABLE_L * TABLE_AB * TABLE_AB;
  // Every other valid pixel, grouped by bin (a counting sort: starts, then the values).
  const starts = new Int32Array(binCount + 1);
  for (let i = 0; i < valid.length; i += 2) {
    if (valid[i] === 0) continue;
    const next = (bins[i] as number) + 1;
    starts[next] = (starts[next] as number) + 1;
  }
  for (let bin = 0; bin < binCount; bin++)
    starts[bin + 1] = (starts[bin + 1] as number) + (starts[bin] as number);
  const values = new Float32Array(starts[binCount] as number);
  const fill = Int32Array.from(starts);
  for (let i = 0; i < valid.length; i += 2) {
    if (valid[i] === 0) continue;
    const bin = bins[i] as number;
    values[fill[bin] as number] = (copy[i] as number) - (fitted[i] as number);
    fill[bin] = (fill[bin] as number) + 1;
  }
  const shift = new Float32Array(binCount);
  const spreads = new Float32Array(values.length);
  for (let bin = 0; bin < binCount; bin++) {
    const start = starts[bin] as number;
    const n = (starts[bin + 1] as number) - start;
    if (n < TABLE_MIN_SAMPLES) continue;
    const own = values.subarray(start, start + n);
    const middle = selectInPlace(own, n >> 1);
    // Only a shift the whole bin agrees on: a bin whose pixels moved apart (part of it
    // recoloured in place) keeps the map, so its moved part stands out.
    const spreadOf = spreads.subarray(0, n);
    for (let k = 0; k < n; k++) spreadOf[k] = Math.abs((own[k] as number) - middle);
    const wide = selectInPlace(spreadOf, Math.floor(n * TABLE_AGREEMENT));
    if (wide <= Math.max(TABLE_MIN_SPREAD, 0.5 * Math.abs(middle))) shift[bin] = middle;
  }
  for (let i = 0; i < valid.length; i++)
    fitted[i] = (fitted[i] as number) + (shift[bins[i] as number] as number);
}
