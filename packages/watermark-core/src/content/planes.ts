// Colour planes the content comparison works on: luma and two chroma differences (BT.601, the
// same luma the mark lives in), 0-255, as Float32Arrays of one size.
import sharp from 'sharp';
import { boxBlur } from '../image/filters.ts';

export interface Planes {
  readonly width: number;
  readonly height: number;
  readonly y: Float32Array;
  readonly cb: Float32Array;
  readonly cr: Float32Array;
  /** 1 where a channel is at or near its limit: a clipped pixel's colour says little. */
  readonly clipped: Float32Array;
}

/**
 * Other ways a grey copy may have been made from colour: Rec. 709 weights in linear light (what
 * libvips and most editors do), and the plain channel mean. A grey copy is compared with
 * whichever of these and BT.601 luma it matches best.
 */
export function greyVersions(
  data: Uint8Array,
  width: number,
  height: number,
  channels: number,
): Float32Array[] {
  const n = width * height;
  const linear = new Float32Array(n);
  const mean = new Float32Array(n);
  for (let i = 0, p = 0; i < n; i++, p += channels) {
    const r = data[p] as number;
    const g = channels >= 3 ? (data[p + 1] as number) : r;
    const b = channels >= 3 ? (data[p + 2] as number) : r;
    const y =
      0.2126 * (LINEAR[r] as number) +
      0.7152 * (LINEAR[g] as number) +
      0.0722 * (LINEAR[b] as number);
    linear[i] = 255 * (y <= 0.0031308 ? 12.92 * y : 1.055 * y ** (1 / 2.4) - 0.055);
    mean[i] = (r + g + b) / 3;
  }
  return [linear, mean];
}

const LINEAR = Float64Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

/** Decodes an encoded image resized to `width` x `height` (sRGB, alpha dropped) into planes. */
export async function decodePlanes(
  image: Uint8Array,
  maxPixels: number,
  width: number,
  height: number,
): Promise<Planes> {
  const { data, info } = await sharp(image, { limitInputPixels: maxPixels, failOn: 'none' })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return planesOfRgb(data, info.width, info.height, info.channels);
}

function labF(t: number): number {
  return t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116;
}

const CLIP_HIGH = 250;
const CLIP_LOW = 4;

export function planesOfRgb(
  data: Uint8Array,
  width: number,
  height: number,
  channels: number,
): Planes {
  const n = width * height;
  const y = new Float32Array(n);
  const cb = new Float32Array(n);
  const cr = new Float32Array(n);
  const clipped = new Float32Array(n);
  for (let i = 0, p = 0; i < n; i++, p += channels) {
    const r = data[p] as number;
    const g = channels >= 3 ? (data[p + 1] as number) : r;
    const b = channels >= 3 ? (data[p + 2] as number) : r;
    const luma = 0.299 * r + 0.587 * g + 0.114 * b;
    y[i] = luma;
    const lr = LINEAR[r] as number;
    const lg = LINEAR[g] as number;
    const lb = LINEAR[b] as number;
    const fx = labF((0.4124 * lr + 0.3576 * lg + 0.1805 * lb) / 0.95047);
    const fy = labF(0.2126 * lr + 0.7152 * lg + 0.0722 * lb);
    const fz = labF((0.0193 * lr + 0.1192 * lg + 0.9505 * lb) / 1.08883);
    cb[i] = 500 * (fx - fy);
    cr[i] = 200 * (fy - fz);
    clipped[i] = Math.max(r, g, b) >= CLIP_HIGH || Math.min(r, g, b) <= CLIP_LOW ? 1 : 0;
  }
  return { width, height, y, cb, cr, clipped };
}

/** From this sigma on, three box passes stand in for the Gaussian (cost independent of sigma). */
const BOX_FROM_SIGMA = 1.6;

/**
 * A Gaussian blur of one plane (separable, clamped edges); sigma 0 returns a copy. Wide blurs are
 * three box blurs of matching variance (Kovesi's construction), within a few percent of the
 * Gaussian and far cheaper.
 */
export function gaussianBlur(
  src: Float32Array,
  width: number,
  height: number,
  sigma: number,
): Float32Array {
  if (sigma <= 0) return Float32Array.from(src);
  const tmp = scratch(src.length);
  if (sigma >= BOX_FROM_SIGMA) {
    const out = new Float32Array(src.length);
    let from = src;
    for (const radius of boxRadii(sigma)) {
      boxBlur(from, width, height, radius, out, tmp);
      from = out;
    }
    return out;
  }
  const radius = Math.max(1, Math.ceil(3 * sigma));
  const kernel = new Float32Array(2 * radius + 1);
  let total = 0;
  for (let k = -radius; k <= radius; k++) {
    const w = Math.exp((-k * k) / (2 * sigma * sigma));
    kernel[k + radius] = w;
    total += w;
  }
  for (let k = 0; k < kernel.length; k++) kernel[k] = (kernel[k] as number) / total;
  const out = new Float32Array(src.length);
  convolveRows(src, tmp, width, height, kernel, radius);
  convolveColumns(tmp, out, width, height, kernel, radius);
  return out;
}

/**
 * The blur's intermediate plane, kept between calls: it is written whole before it is read, and
 * a comparison blurs dozens of planes (each allocation also costs a garbage collection's time).
 */
let between = new Float32Array(0);

function scratch(length: number): Float32Array {
  if (between.length < length) between = new Float32Array(length);
  return between;
}

/** Radii of three box passes whose variance is sigma^2. */
function boxRadii(sigma: number): number[] {
  const ideal = Math.sqrt((12 * sigma * sigma) / 3 + 1);
  let lower = Math.floor(ideal);
  if (lower % 2 === 0) lower--;
  const upper = lower + 2;
  const lowerCount = Math.round(
    (12 * sigma * sigma - 3 * lower * lower - 12 * lower - 9) / (-4 * lower - 4),
  );
  return [0, 1, 2].map((pass) => ((pass < lowerCount ? lower : upper) - 1) / 2);
}

function convolveRows(
  src: Float32Array,
  dst: Float32Array,
  width: number,
  height: number,
  kernel: Float32Array,
  radius: number,
): void {
  for (let y = 0; y < height; y++) convolveRow(src, dst, y * width, width, kernel, radius);
}

/**
 * One row of convolveRows. A function of its own, as the loops of the other filters below: the
 * engine then compiles it whole after a few rows, where a loop nested in a long-running function
 * is compiled on its own and left again at every turn of the loop around it, which costs more
 * than the filter itself until the whole function is compiled (the first comparisons of a
 * thread).
 */
function convolveRow(
  src: Float32Array,
  dst: Float32Array,
  row: number,
  width: number,
  kernel: Float32Array,
  radius: number,
): void {
  const last = width - 1;
  for (let x = 0; x < width; x++) {
    let sum = 0;
    if (x >= radius && x + radius <= last) {
      const base = row + x - radius;
      for (let k = 0; k < kernel.length; k++)
        sum += (kernel[k] as number) * (src[base + k] as number);
    } else {
      for (let k = -radius; k <= radius; k++) {
        const xx = x + k < 0 ? 0 : Math.min(x + k, last);
        sum += (kernel[k + radius] as number) * (src[row + xx] as number);
      }
    }
    dst[row + x] = sum;
  }
}

/** Row by row (each output row a weighted sum of whole input rows), so memory is read in order. */
function convolveColumns(
  src: Float32Array,
  dst: Float32Array,
  width: number,
  height: number,
  kernel: Float32Array,
  radius: number,
): void {
  const last = height - 1;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    dst.fill(0, row, row + width);
    for (let k = -radius; k <= radius; k++) {
      const yy = y + k < 0 ? 0 : Math.min(y + k, last);
      addRow(src, yy * width, dst, row, width, kernel[k + radius] as number);
    }
  }
}

/** dst's row at `to` plus `w` times src's row at `from` (see convolveRow on why a function). */
function addRow(
  src: Float32Array,
  from: number,
  dst: Float32Array,
  to: number,
  width: number,
  w: number,
): void {
  for (let x = 0; x < width; x++)
    dst[to + x] = (dst[to + x] as number) + w * (src[from + x] as number);
}
