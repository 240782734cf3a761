// The last few pixels of alignment. The mark's geometry gives the copy's rotation and scale to
// within a few tenths of a degree and a few tenths of a percent, which across a large copy still
// leaves edges a reference pixel or more apart, and a misplaced edge looks like an edit. Patches
// spread over the copy each find their own small shift; an affine fit to those shifts (robust, so a
// patch on an edit does not pull it) corrects rotation, scale and position together.
import { maskBounds } from './masked-filters.ts';
import { type Placement, toCopy } from './placement.ts';
import { gaussianBlur } from './planes.ts';
import type { Reference } from './residuals.ts';
import { type DecodedCopy, type Frame, warpCopy } from './warp.ts';

const PATCH = 40;
/** Patch search reach (reference pixels): first as far as the mark may be off, then near. */
const REACH = 3;
const NEAR_REACH = 2;
const PATCHES_PER_SIDE = 5;
const MIN_PATCH_SPREAD = 4;
const MIN_PATCH_CORRELATION = 0.8;

interface Shift {
  readonly x: number;
  readonly y: number;
  readonly dx: number;
  readonly dy: number;
}

/** Softness of the luma the patches are matched on. */
const MATCH_BLUR = 1;
const PASSES = 3;

/**
 * A placement aligned to the pixel: in passes (each measures what the one before left), each
 * time resampling the copy and correcting by the patches' shifts.
 */
/** A detailed patch of the reference, and whether the aligned copy shows it where expected. */
export interface PatchCheck {
  readonly x: number;
  readonly y: number;
  readonly inPlace: boolean;
}

export interface Alignment {
  readonly placement: Placement;
  /** How far the alignment moved from the mark's placement. */
  readonly drift: Drift;
  /** A correction measured but not taken: the content lies further from the mark than it can err. */
  readonly refused: Drift | null;
  /**
   * The detailed patches: a copy of this picture, edits aside, shows nearly all of them where
   * the aligned placement puts them; another shot of the scene, however alike, does not.
   */
  readonly patches: readonly PatchCheck[];
}

export function alignPlacement(
  copy: DecodedCopy,
  placement: Placement,
  reference: Reference,
  frame: Frame,
): Alignment {
  const referenceLuma = matchLuma(reference);
  const copyLuma = copy.memo.get('match-luma', () =>
    gaussianBlur(copy.planes.y, copy.planes.width, copy.planes.height, MATCH_BLUR),
  );
  let aligned = placement;
  let refused: Drift | null = null;
  for (let pass = 0; pass < PASSES; pass++) {
    const warped = warpCopy(copy, aligned, frame, { chroma: false, margin: 1, luma: copyLuma });
    // The first pass searches as far as the mark's error reaches; later ones only correct it.
    const reach = pass === 0 ? REACH : NEAR_REACH;
    const refined = refinePlacement(aligned, frame, referenceLuma, warped.y, warped.valid, reach);
    // Only as far as the mark's geometry can be off: a copy whose content needs more is not
    // locked to its mark (a mark moved onto a second shot of the scene), and must not be
    // bent into agreement.
    if (!withinMarkPrecision(placement, refined, frame)) {
      refused = driftOf(placement, refined, frame);
      break;
    }
    const settled = cornerMovement(aligned, refined, frame) < SETTLED;
    aligned = refined;
    if (settled) break;
  }
  const final = warpCopy(copy, aligned, frame, { chroma: false, margin: 1, luma: copyLuma });
  return {
    placement: aligned,
    drift: driftOf(placement, aligned, frame),
    refused,
    patches: patchShifts(frame, referenceLuma, final.y, final.valid, NEAR_REACH).checks,
  };
}

/** The reference's luma as patches are matched on it (made before any copy is placed). */
export function matchLuma(reference: Reference): Float32Array {
  return reference.memo.get('match-luma', () =>
    gaussianBlur(reference.y, reference.width, reference.height, MATCH_BLUR),
  );
}

/**
 * How far (reference pixels) a pass moved the frame's corners at most: a pass that moves them
 * less than SETTLED leaves nothing for another to correct.
 */
function cornerMovement(before: Placement, after: Placement, frame: Frame): number {
  const scale = Math.sqrt(Math.abs(before.a * before.d - before.b * before.c));
  let most = 0;
  for (const [u, v] of [
    [0, 0],
    [frame.width, 0],
    [0, frame.height],
    [frame.width, frame.height],
  ] as const) {
    const x = u / frame.scaleX;
    const y = v / frame.scaleY;
    const from = toCopy(before, x, y);
    const to = toCopy(after, x, y);
    most = Math.max(most, (Math.hypot(to.x - from.x, to.y - from.y) / scale) * frame.scaleX);
  }
  return most;
}

const SETTLED = 0.1;

/** A patch found this close (reference pixels) to where it is expected is in place. */
const IN_PLACE = 1.5;

/** How far the mark's geometry is from the truth at most: scale, degrees, reference pixels. */
const MAX_SCALE_CHANGE = 0.025;
const MAX_ROTATION = 1.5;
const MAX_SHIFT = 3 * REACH;

/** How far an alignment moved from the mark's placement: scale, degrees, reference pixels. */
export interface Drift {
  readonly scale: number;
  readonly turn: number;
  readonly shift: number;
}

/** The correction `refined` makes to the mark's `placement`. */
export function driftOf(placement: Placement, refined: Placement, frame: Frame): Drift {
  // The correction itself, refined times the placement's inverse: near a pure turn and scale
  // whether or not the copy is mirrored.
  const det = placement.a * placement.d - placement.b * placement.c;
  const ia = placement.d / det;
  const ib = -placement.b / det;
  const ic = -placement.c / det;
  const id = placement.a / det;
  const ra = refined.a * ia + refined.b * ic;
  const rb = refined.a * ib + refined.b * id;
  const rc = refined.c * ia + refined.d * ic;
  const rd = refined.c * ib + refined.d * id;
  const scale = Math.sqrt(Math.abs(ra * rd - rb * rc)) - 1;
  const turn = (Math.atan2(rc - rb, ra + rd) * 180) / Math.PI;
  const scaleOf = (p: Placement) => Math.sqrt(Math.abs(p.a * p.d - p.b * p.c));
  // The shift of the frame's centre, in reference pixels.
  const cx = frame.width / 2 / frame.scaleX;
  const cy = frame.height / 2 / frame.scaleY;
  const from = toCopy(placement, cx, cy);
  const to = toCopy(refined, cx, cy);
  const shift = (Math.hypot(to.x - from.x, to.y - from.y) / scaleOf(placement)) * frame.scaleX;
  return { scale, turn, shift };
}

/** Whether `refined` differs from the mark's `placement` by no more than the mark's precision. */
function withinMarkPrecision(placement: Placement, refined: Placement, frame: Frame): boolean {
  const drift = driftOf(placement, refined, frame);
  return (
    Math.abs(drift.scale) <= MAX_SCALE_CHANGE &&
    Math.abs(drift.turn) <= MAX_ROTATION &&
    drift.shift <= MAX_SHIFT
  );
}

/**
 * The placement corrected by the affine fit to the patches' shifts between the reference and the
 * copy as `placement` resamples it (both soft luma in the reference's frame). Unchanged when too
 * few patches are textured and whole enough to measure.
 */
function refinePlacement(
  placement: Placement,
  frame: Frame,
  reference: Float32Array,
  warped: Float32Array,
  valid: Uint8Array,
  reach: number,
): Placement {
  const { shifts } = patchShifts(frame, reference, warped, valid, reach);
  if (shifts.length < 3) return placement;
  const fit = fitAffine(shifts);
  if (fit === null) return placement;
  // The copy's content at reference point r lies at r + D r + e: the original point the copy
  // shows there is S^-1 ((I + D) S q + e) for the original point q.
  const { d11, d12, d21, d22, ex, ey } = fit;
  const sx = frame.scaleX;
  const sy = frame.scaleY;
  // N = S^-1 (I + D) S, n = S^-1 e.
  const n11 = 1 + d11;
  const n12 = (d12 * sy) / sx;
  const n21 = (d21 * sx) / sy;
  const n22 = 1 + d22;
  const nx = ex / sx;
  const ny = ey / sy;
  const { a, b, c, d } = placement;
  return {
    a: a * n11 + b * n21,
    b: a * n12 + b * n22,
    c: c * n11 + d * n21,
    d: c * n12 + d * n22,
    tx: a * nx + b * ny + placement.tx,
    ty: c * nx + d * ny + placement.ty,
  };
}

/** The shifts of the patches found, and every detailed patch checked. */
function patchShifts(
  frame: Frame,
  reference: Float32Array,
  warped: Float32Array,
  valid: Uint8Array,
  reach: number,
): { shifts: Shift[]; checks: PatchCheck[] } {
  const { width } = frame;
  const shifts: Shift[] = [];
  const checks: PatchCheck[] = [];
  const span = PATCH + 2 * REACH;
  // Spread over what the copy shows (a crop shows a small part of the frame).
  const shown = maskBounds(valid, width);
  if (shown === null || shown.width < span || shown.height < span) return { shifts, checks };
  const freeX = shown.width - span;
  const freeY = shown.height - span;
  for (let j = 0; j < PATCHES_PER_SIDE; j++) {
    for (let i = 0; i < PATCHES_PER_SIDE; i++) {
      const x0 = shown.x + REACH + Math.round((i * freeX) / (PATCHES_PER_SIDE - 1));
      const y0 = shown.y + REACH + Math.round((j * freeY) / (PATCHES_PER_SIDE - 1));
      if (!allValid(valid, width, x0 - REACH, y0 - REACH, span)) continue;
      const shift = patchShift(reference, warped, width, x0, y0, reach);
      if (shift === 'flat') continue;
      const centre = { x: x0 + PATCH / 2, y: y0 + PATCH / 2 };
      checks.push({
        ...centre,
        inPlace: shift !== null && Math.hypot(shift.dx, shift.dy) <= IN_PLACE,
      });
      if (shift !== null) shifts.push({ ...centre, ...shift });
    }
  }
  return { shifts, checks };
}

function allValid(valid: Uint8Array, width: number, x0: number, y0: number, span: number): boolean {
  for (let y = y0; y < y0 + span; y++) {
    for (let x = x0; x < x0 + span; x++) if (valid[y * width + x] === 0) return false;
  }
  return true;
}

/**
 * Where the reference's patch at (x0, y0) lies in the warped copy (sub-pixel); null when it is
 * not found within REACH, 'flat' when it has too little detail to tell.
 */
function patchShift(
  reference: Float32Array,
  warped: Float32Array,
  width: number,
  x0: number,
  y0: number,
  reach: number,
): { dx: number; dy: number } | 'flat' | null {
  const n = PATCH * PATCH;
  const patch = new Float32Array(n);
  let mean = 0;
  for (let y = 0; y < PATCH; y++) {
    for (let x = 0; x < PATCH; x++)
      mean += patch[y * PATCH + x] = reference[(y0 + y) * width + x0 + x] as number;
  }
  mean /= n;
  let energy = 0;
  for (let k = 0; k < n; k++) {
    patch[k] = (patch[k] as number) - mean;
    energy += (patch[k] as number) ** 2;
  }
  if (Math.sqrt(energy / n) < MIN_PATCH_SPREAD) return 'flat';
  const side = 2 * reach + 1;
  const scores = new Float64Array(side * side);
  for (let sy = -reach; sy <= reach; sy++) {
    for (let sx = -reach; sx <= reach; sx++) {
      scores[(sy + reach) * side + sx + reach] = shiftScore(
        patch,
        energy,
        warped,
        (y0 + sy) * width + x0 + sx,
        width,
      );
    }
  }
  let best = 0;
  for (let k = 1; k < scores.length; k++)
    if ((scores[k] as number) > (scores[best] as number)) best = k;
  if ((scores[best] as number) < MIN_PATCH_CORRELATION) return null;
  const bx = best % side;
  const by = (best - bx) / side;
  // A peak on the border of the search is not a measured shift.
  if (bx === 0 || by === 0 || bx === side - 1 || by === side - 1) return null;
  const at = (x: number, y: number) => scores[y * side + x] as number;
  return {
    dx: bx - reach + parabolaPeak(at(bx - 1, by), at(bx, by), at(bx + 1, by)),
    dy: by - reach + parabolaPeak(at(bx, by - 1), at(bx, by), at(bx, by + 1)),
  };
}

/**
 * The correlation of the centred reference patch (its `energy` the sum of its squares) with the
 * warped copy's patch starting at `start`. A function of its own: loops nested four deep in
 * patchShift were compiled on their own and left at every shift until patchShift was.
 */
function shiftScore(
  patch: Float32Array,
  energy: number,
  warped: Float32Array,
  start: number,
  width: number,
): number {
  const n = PATCH * PATCH;
  let sum = 0;
  let sumSq = 0;
  let cross = 0;
  for (let y = 0; y < PATCH; y++) {
    const row = start + y * width;
    for (let x = 0; x < PATCH; x++) {
      const v = warped[row + x] as number;
      sum += v;
      sumSq += v * v;
      cross += v * (patch[y * PATCH + x] as number);
    }
  }
  const variance = sumSq - (sum * sum) / n;
  return variance > 0 ? cross / Math.sqrt(variance * energy) : 0;
}

function parabolaPeak(left: number, centre: number, right: number): number {
  const curvature = left - 2 * centre + right;
  return curvature < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (left - right)) / curvature)) : 0;
}

/** Affine fit shift = D (x, y) + e by least squares, then again without the worst outliers. */
function fitAffine(
  shifts: readonly Shift[],
): { d11: number; d12: number; d21: number; d22: number; ex: number; ey: number } | null {
  let kept = shifts;
  let fit = solveAffine(kept);
  for (let round = 0; round < 2 && fit !== null; round++) {
    const f = fit;
    const errors = kept.map((s) =>
      Math.hypot(f.d11 * s.x + f.d12 * s.y + f.ex - s.dx, f.d21 * s.x + f.d22 * s.y + f.ey - s.dy),
    );
    const limit = Math.max(
      0.5,
      2.5 * ([...errors].sort((p, q) => p - q)[errors.length >> 1] as number),
    );
    const next = kept.filter((_, k) => (errors[k] as number) <= limit);
    if (next.length === kept.length || next.length < 3) break;
    kept = next;
    fit = solveAffine(kept);
  }
  return fit;
}

function solveAffine(
  shifts: readonly Shift[],
): { d11: number; d12: number; d21: number; d22: number; ex: number; ey: number } | null {
  // Normal equations for [x y 1] against dx and dy, centred for conditioning.
  const n = shifts.length;
  const mx = shifts.reduce((s, p) => s + p.x, 0) / n;
  const my = shifts.reduce((s, p) => s + p.y, 0) / n;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  let sxdx = 0;
  let sydx = 0;
  let sxdy = 0;
  let sydy = 0;
  let mdx = 0;
  let mdy = 0;
  for (const s of shifts) {
    mdx += s.dx / n;
    mdy += s.dy / n;
  }
  for (const s of shifts) {
    const x = s.x - mx;
    const y = s.y - my;
    sxx += x * x;
    sxy += x * y;
    syy += y * y;
    sxdx += x * (s.dx - mdx);
    sydx += y * (s.dx - mdx);
    sxdy += x * (s.dy - mdy);
    sydy += y * (s.dy - mdy);
  }
  const det = sxx * syy - sxy * sxy;
  if (Math.abs(det) < 1e-6) {
    return { d11: 0, d12: 0, d21: 0, d22: 0, ex: mdx, ey: mdy };
  }
  const d11 = (sxdx * syy - sydx * sxy) / det;
  const d12 = (sydx * sxx - sxdx * sxy) / det;
  const d21 = (sxdy * syy - sydy * sxy) / det;
  const d22 = (sydy * sxx - sxdy * sxy) / det;
  return { d11, d12, d21, d22, ex: mdx - d11 * mx - d12 * my, ey: mdy - d21 * mx - d22 * my };
}
