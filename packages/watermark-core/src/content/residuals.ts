// The copy's residual against the reference once what the whole copy does is fitted: its
// softness (a blur, a shrink, a sharpening: chosen by the smallest residual), its tones (luma
// curve) and colours (chroma map). What is left is what the copy changed locally.

import { halve } from '../image/filters.ts';
import type { ResidualPlane } from './block-scores.ts';
import { gradientMagnitude } from './block-scores.ts';
import { detailLoss } from './detail-loss.ts';
import { erode, maskedBlur, subtract, without } from './masked-filters.ts';
import type { Memo } from './memo.ts';
import {
  type ColourMap,
  colourBins,
  colourMap,
  correctByColour,
  matchChroma,
  matchLocalTone,
  matchLuma,
  matchLumaAndColour,
  median,
  spread,
} from './photometric.ts';
import type { Placement } from './placement.ts';
import { gaussianBlur, type Planes } from './planes.ts';
import { type DecodedCopy, type Frame, warpCopy } from './warp.ts';

/** Softness applied to both before comparing: re-encoding noise and the mark itself go. */
const BASE_BLUR = 0.8;
/** Extra softness tried on the reference (a soft or shrunk copy) or on the copy (a sharpened one). */
const SOFTNESS = [
  ...[0, 0.8, 1.3, 2, 3].map((sigma) => ({ ref: sigma, copy: 0 })),
  ...[0.8, 1.4].map((sigma) => ({ ref: 0, copy: sigma })),
];
/** Pixels left out along the edge of what the copy shows (resampling and fill blur it). */
const EDGE = 4;
/** Share of a pixel's chroma its luma may move by, per unit of colour change of the copy. */
const COLOUR_SHARE = 0.5;
/** Reference luma beyond which a copy's clipping is a tone change's, not an edit's. */
const CLIP_TONE_HIGH = 170;
const CLIP_TONE_LOW = 60;
/** A copy whose chroma spreads less than this is grey: only its luma is compared. */
const GREY_SPREAD = 1.5;

/** The reference's planes, and the other greys a grey copy may have been made with. */
export interface Reference extends Planes {
  /** Made when a grey copy asks for them (most copies are in colour). */
  readonly greys: () => readonly Float32Array[];
  /** What is made of these planes once per comparison (see the keys below). */
  readonly memo: Memo;
}

export interface Residuals {
  readonly planes: ResidualPlane[];
  /** The pixels compared. */
  readonly valid: Uint8Array;
  /** How much of the reference's frame the copy shows (before the edge is left out). */
  readonly shown: number;
  /** The reference's luma (as soft as the copy) and the copy's, compared. */
  readonly referenceLuma: Float32Array;
  readonly copyLuma: Float32Array;
}

/** Sigma of the chroma planes' softness (JPEG keeps chroma at half resolution). */
const CHROMA_SIGMA = BASE_BLUR + 1;

/**
 * The reference's side of fittedResiduals for a colour copy, made before any copy is placed (a
 * grey copy, or another softness, makes the rest when asked).
 */
export function prepareResiduals(reference: Reference): void {
  const luma = baseLuma(reference, 'y');
  const half = halfLuma(reference, luma);
  for (const option of SOFTNESS) if (option.ref !== 0) softHalf(reference, luma, half, option.ref);
  referenceColour(reference, luma);
  colourMagnitude(reference);
  chromaDetail(reference);
}

/** A version of the reference's luma (its BT.601 luma or one of its greys) and its key. */
interface Luma {
  readonly key: string;
  readonly plane: Float32Array;
}

function baseLuma(reference: Reference, version: 'y' | number): Luma {
  const key = `luma:${version}@${BASE_BLUR}`;
  const source = version === 'y' ? reference.y : (reference.greys()[version] as Float32Array);
  return {
    key,
    plane: reference.memo.get(key, () =>
      gaussianBlur(source, reference.width, reference.height, BASE_BLUR),
    ),
  };
}

/** A luma version made softer by `sigma` (none: itself). */
function softer(reference: Reference, luma: Luma, sigma: number): Luma {
  if (sigma === 0) return luma;
  const key = `${luma.key}@${sigma}`;
  return {
    key,
    plane: reference.memo.get(key, () =>
      gaussianBlur(luma.plane, reference.width, reference.height, sigma),
    ),
  };
}

function halfLuma(reference: Reference, luma: Luma): Float32Array {
  return reference.memo.get(`${luma.key}/2`, () =>
    halve(luma.plane, reference.width, reference.height),
  );
}

/** The half-size luma made softer by `sigma` full-size pixels. */
function softHalf(
  reference: Reference,
  luma: Luma,
  half: Float32Array,
  sigma: number,
): Float32Array {
  return reference.memo.get(`${luma.key}/2@${sigma}`, () =>
    gaussianBlur(half, reference.width >> 1, reference.height >> 1, sigma / 2),
  );
}

/** The reference's colours as the copy's are compared: the chosen luma, soft chroma. */
function referenceColour(
  reference: Reference,
  luma: Luma,
): { y: Float32Array; cb: Float32Array; cr: Float32Array } {
  const blur = (plane: Float32Array) => () =>
    gaussianBlur(plane, reference.width, reference.height, CHROMA_SIGMA);
  return {
    y: luma.plane,
    cb: reference.memo.get('cb', blur(reference.cb)),
    cr: reference.memo.get('cr', blur(reference.cr)),
  };
}

/** Each pixel's chroma magnitude (soft), which the residuals' bars follow. */
function colourMagnitude(reference: Reference): Float32Array {
  return reference.memo.get('colour', () => {
    const { cb, cr } = referenceColour(reference, { key: '', plane: reference.y });
    return magnitude(cb, cr);
  });
}

/** The soft chroma's local detail (gradient magnitude of both planes). */
function chromaDetail(reference: Reference): Float32Array {
  return reference.memo.get('chroma-detail', () => {
    const { width, height } = reference;
    const { cb, cr } = referenceColour(reference, { key: '', plane: reference.y });
    return magnitude(gradientMagnitude(cb, width, height), gradientMagnitude(cr, width, height));
  });
}

/** Each pixel's length of the vector (a, b). */
function magnitude(a: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(a.length);
  for (let i = 0; i < out.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    out[i] = Math.sqrt(x * x + y * y);
  }
  return out;
}

/** The copy warped into the reference's frame, as fittedResiduals compares it. */
export type WarpedCopy = ReturnType<typeof warpCopy>;

export function warpForResiduals(
  copy: DecodedCopy,
  placement: Placement,
  frame: Frame,
): WarpedCopy {
  return warpCopy(copy, placement, frame, { chroma: true, margin: 0 });
}

/**
 * The residual planes of a warped copy. Its tones and colours are fitted on the valid pixels
 * outside `exclude` (1 where an edit was found: its pixels must not bend those fits; softness
 * and grey are chosen by medians over all of them, which an edit does not move), and the
 * residual is measured on all of them.
 */
export function fittedResiduals(
  warped: WarpedCopy,
  reference: Reference,
  frame: Frame,
  exclude: Uint8Array | null = null,
): Residuals {
  const { width, height } = frame;
  const valid = erode(warped.valid, width, height, EDGE);
  const fitted = exclude === null ? valid : without(valid, exclude);
  const copyY = maskedBlur(warped.y, warped.valid, width, height, BASE_BLUR);
  const copyCb = warped.cb as Float32Array;
  const copyCr = warped.cr as Float32Array;
  const grey = spread(copyCb, valid) < GREY_SPREAD && spread(copyCr, valid) < GREY_SPREAD;
  // A grey copy: the grey it was made with, of those a converter uses.
  let refY = baseLuma(reference, 'y');
  if (grey) {
    let error = lumaError(refY.plane, copyY, valid);
    for (let version = 0; version < reference.greys().length; version++) {
      const candidate = baseLuma(reference, version);
      const e = lumaError(candidate.plane, copyY, valid);
      if (e < error) {
        error = e;
        refY = candidate;
      }
    }
  }
  // The softness that matches best: the smallest luma residual (median, so edits do not count),
  // chosen at half resolution (a quarter of the work; softness is a coarse property).
  const half = halfSize(copyY, valid, width, height);
  const halfReference = halfLuma(reference, refY);
  let chosen = { ref: 0, copy: 0, error: Infinity };
  for (const option of SOFTNESS) {
    const r =
      option.ref === 0 ? halfReference : softHalf(reference, refY, halfReference, option.ref);
    const c =
      option.copy === 0
        ? half.copy
        : gaussianBlur(half.copy, half.width, half.height, option.copy / 2);
    const error = lumaError(r, c, half.valid);
    if (error < chosen.error) chosen = { ...option, error };
  }
  const chosenLuma = softer(reference, refY, chosen.ref);
  const best = {
    refY: chosenLuma.plane,
    copyY: chosen.copy === 0 ? copyY : maskedBlur(copyY, warped.valid, width, height, chosen.copy),
  };
  const colours = referenceColour(reference, chosenLuma);
  const map = colourMap(
    colours,
    fitted,
    reference.memo.get(`bins:${chosenLuma.key}`, () => colourBins(colours)),
    exclude !== null,
  );
  const fittedLuma = matchLocalTone(
    matchLumaAndColour(map, best.copyY),
    best.copyY,
    fitted,
    width,
    height,
  );
  const colour = colourMagnitude(reference);
  const chroma = grey ? null : chromaResidual(warped, map, frame, colour, chromaDetail(reference));
  // A grey copy lost all colour: its luma is judged as a grey conversion (matched above).
  const colourChange = chroma?.change ?? 0;
  const planes: ResidualPlane[] = [
    {
      residual: subtract(best.copyY, fittedLuma),
      detail: reference.memo.get(`gradient:${chosenLuma.key}`, () =>
        gradientMagnitude(best.refY, width, height),
      ),
      colour: { magnitude: colour, share: COLOUR_SHARE * colourChange },
    },
  ];
  if (chroma !== null) planes.push(chroma.plane);
  planes.push(detailLoss(best.refY, best.copyY, valid, width, height));
  return {
    planes,
    valid,
    shown: warped.count / (width * height),
    referenceLuma: best.refY,
    copyLuma: best.copyY,
  };
}

/** The median luma residual once tones are fitted: how well two versions match, edits aside. */
function lumaError(reference: Float32Array, copy: Float32Array, valid: Uint8Array): number {
  const fitted = matchLuma(reference, copy, valid);
  const errors = new Float64Array(Math.ceil(valid.length / 3));
  let n = 0;
  for (let i = 0; i < valid.length; i += 3) {
    if (valid[i] === 1) errors[n++] = Math.abs((copy[i] as number) - (fitted[i] as number));
  }
  return median(errors.subarray(0, n));
}

/** Chroma is compared softer than luma: JPEG keeps it at half resolution. */
function chromaResidual(
  warped: ReturnType<typeof warpCopy>,
  map: ColourMap,
  frame: Frame,
  magnitude: Float32Array,
  detail: Float32Array,
): { readonly plane: ResidualPlane; readonly change: number } {
  const sigma = CHROMA_SIGMA;
  const { width, height } = frame;
  const { reference: refPlanes, valid } = map;
  const cb = maskedBlur(warped.cb as Float32Array, warped.valid, width, height, sigma);
  const cr = maskedBlur(warped.cr as Float32Array, warped.valid, width, height, sigma);
  const fittedCb = matchChroma(map, cb);
  const fittedCr = matchChroma(map, cr);
  correctByColour(map, cb, fittedCb);
  correctByColour(map, cr, fittedCr);
  // How far the copy's colours were turned or scaled as a whole: the fitted map's distance from
  // identity, relative to the colour there is.
  let moved = 0;
  let present = 0;
  for (let i = 0; i < valid.length; i++) {
    if (valid[i] === 0) continue;
    const a = refPlanes.cb[i] as number;
    const b = refPlanes.cr[i] as number;
    moved += ((fittedCb[i] as number) - a) ** 2 + ((fittedCr[i] as number) - b) ** 2;
    present += a * a + b * b;
  }
  const change = present > 0 ? Math.sqrt(moved / present) : 0;
  // Near a pixel the copy clipped in a highlight or shadow, its colour is the clipping's, not
  // the picture's (a brightened copy); in mid-tones a clipped pixel is a colour pushed out of
  // range, which is compared.
  const clipped = gaussianBlur(warped.clipped as Float32Array, width, height, sigma);
  const residual = new Float32Array(valid.length);
  for (let i = 0; i < valid.length; i++) {
    const tone = refPlanes.y[i] as number;
    if ((clipped[i] as number) > 0.02 && (tone > CLIP_TONE_HIGH || tone < CLIP_TONE_LOW)) continue;
    const db = (cb[i] as number) - (fittedCb[i] as number);
    const dr = (cr[i] as number) - (fittedCr[i] as number);
    residual[i] = Math.sqrt(db * db + dr * dr);
  }
  // As for luma: colours turned or scaled as a whole leave a residual that grows with the colour
  // there is (`magnitude`), which no smooth map of the whole picture follows exactly.
  return {
    plane: { residual, detail, colour: { magnitude, share: COLOUR_SHARE * change } },
    change,
  };
}

/**
 * The copy's plane and its mask at half the size: the plane by image/filters.ts's 2x2 means (as the
 * reference's), the mask valid where all four pixels are.
 */
function halfSize(
  copy: Float32Array,
  valid: Uint8Array,
  width: number,
  height: number,
): { copy: Float32Array; valid: Uint8Array; width: number; height: number } {
  const w = width >> 1;
  const h = height >> 1;
  const v = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = 2 * y * width + 2 * x;
      v[y * w + x] = ((valid[i] as number) &
        (valid[i + 1] as number) &
        (valid[i + width] as number) &
        (valid[i + width + 1] as number)) as number;
    }
  }
  return { copy: halve(copy, width, height), valid: v, width: w, height: h };
}
