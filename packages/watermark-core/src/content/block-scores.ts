// Where the copy differs from the reference beyond what the whole copy's treatment explains.
// Each block's residual (copy minus the fitted reference) is set against what an honest copy
// leaves there: a noise floor (re-encoding, grain), a share of the block's own detail (sub-pixel
// misplacement and resampling move edges a little) and, for luma, a share of its colourfulness
// (a hue or saturation change moves the luma of strong colours in ways no global fit follows,
// so the bar rises with how far the copy's colours were changed as a whole). Floor and detail
// share are measured on the copy itself, from the blocks that agree, so a noisy or soft copy
// raises its own bar, and a copy that is neither keeps it low.
import { median } from './photometric.ts';

export const BLOCK = 8;
export const STRIDE = 4;

/** The honest residual measured on one copy, for one plane. */
export interface Calibration {
  readonly floor: number;
  readonly share: number;
  readonly colourShare: number;
}

export interface BlockGrid {
  readonly columns: number;
  readonly rows: number;
  /** How far each block is beyond an honest copy's residual (0 where not compared). */
  readonly scores: Float32Array;
  /** 1 where the block was compared (mostly shown in the copy). */
  readonly compared: Uint8Array;
  /** Per plane. */
  readonly calibration: readonly Calibration[];
}

export interface ResidualPlane {
  /** Copy minus fitted reference. */
  readonly residual: Float32Array;
  /** The reference's local detail (gradient magnitude) the residual is judged against. */
  readonly detail: Float32Array;
  /**
   * The reference's colourfulness (chroma magnitude) and the share of it an honest copy may
   * leave in the residual: how far the copy's colours were turned or scaled as a whole.
   */
  readonly colour?: { readonly magnitude: Float32Array; readonly share: number };
  /** The lowest detail share assumed for this plane (MIN_SHARE when absent). */
  readonly minShare?: number;
}

/** Gradient magnitude of a plane (central differences). */
export function gradientMagnitude(
  plane: Float32Array,
  width: number,
  height: number,
): Float32Array {
  const out = new Float32Array(plane.length);
  for (let y = 0; y < height; y++) {
    const up = Math.max(0, y - 1) * width;
    const down = Math.min(height - 1, y + 1) * width;
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const left = Math.max(0, x - 1);
      const right = Math.min(width - 1, x + 1);
      const gx = (plane[row + right] as number) - (plane[row + left] as number);
      const gy = (plane[down + x] as number) - (plane[up + x] as number);
      out[row + x] = 0.5 * Math.sqrt(gx * gx + gy * gy);
    }
  }
  return out;
}

/** One plane's RMS residual, detail and colour per block. */
interface PlaneBlocks {
  readonly rms: Float32Array;
  readonly detail: Float32Array;
  readonly colour: Float32Array;
}

/**
 * Scores of every BLOCK x BLOCK block (STRIDE apart): the residual's RMS over the honest
 * expectation, the larger of the planes'.
 */
export function blockScores(
  planes: readonly ResidualPlane[],
  valid: Uint8Array,
  width: number,
  height: number,
  exclude: Uint8Array | null = null,
): BlockGrid {
  const columns = Math.max(0, Math.floor((width - BLOCK) / STRIDE) + 1);
  const rows = Math.max(0, Math.floor((height - BLOCK) / STRIDE) + 1);
  const count = columns * rows;
  const compared = new Uint8Array(count);
  const scores = new Float32Array(count);
  const stats: PlaneBlocks[] = planes.map(() => ({
    rms: new Float32Array(count),
    detail: new Float32Array(count),
    colour: new Float32Array(count),
  }));
  for (let by = 0; by < rows; by++) {
    for (let bx = 0; bx < columns; bx++) {
      const b = by * columns + bx;
      const shown = shownIn(valid, width, bx, by);
      if (shown < (BLOCK * BLOCK * 3) / 4) continue;
      compared[b] = 1;
      for (let k = 0; k < planes.length; k++) {
        planeBlock(
          planes[k] as ResidualPlane,
          valid,
          width,
          bx,
          by,
          shown,
          stats[k] as PlaneBlocks,
          b,
        );
      }
    }
  }
  // The honest residual is measured where no edit was found (all compared blocks when none was).
  const honest = exclude === null ? compared : outsideOf(exclude, compared, width, columns);
  const calibration = stats.map((stat, k) =>
    honestResidual(stat, honest, planes[k]?.colour?.share ?? 0, planes[k]?.minShare ?? MIN_SHARE),
  );
  stats.forEach((stat, k) => {
    const { floor, share, colourShare } = calibration[k] as Calibration;
    for (let b = 0; b < count; b++) {
      if (compared[b] === 0) continue;
      const expected = Math.sqrt(
        floor * floor +
          (share * (stat.detail[b] as number)) ** 2 +
          (colourShare * (stat.colour[b] as number)) ** 2,
      );
      scores[b] = Math.max(scores[b] as number, (stat.rms[b] as number) / expected);
    }
  });
  return { columns, rows, scores, compared, calibration };
}

/** The compared blocks whose centre lies outside `exclude` (pixels of a `width`-wide frame). */
function outsideOf(
  exclude: Uint8Array,
  compared: Uint8Array,
  width: number,
  columns: number,
): Uint8Array {
  const out = new Uint8Array(compared.length);
  const centre = BLOCK >> 1;
  for (let b = 0; b < compared.length; b++) {
    if (compared[b] === 0) continue;
    const bx = b % columns;
    const by = (b - bx) / columns;
    out[b] = (exclude[(by * STRIDE + centre) * width + bx * STRIDE + centre] as number) ^ 1;
  }
  return out;
}

/**
 * The valid pixels of the block at (bx, by). A function of its own, as planeBlock: a loop nested
 * in blockScores' would be compiled on its own and left at every block until blockScores is.
 */
function shownIn(valid: Uint8Array, width: number, bx: number, by: number): number {
  let shown = 0;
  for (let y = by * STRIDE; y < by * STRIDE + BLOCK; y++) {
    for (let x = bx * STRIDE; x < bx * STRIDE + BLOCK; x++) shown += valid[y * width + x] as number;
  }
  return shown;
}

/** One plane's statistics of the block at (bx, by), index b, of which `shown` pixels are valid. */
function planeBlock(
  plane: ResidualPlane,
  valid: Uint8Array,
  width: number,
  bx: number,
  by: number,
  shown: number,
  stat: PlaneBlocks,
  b: number,
): void {
  let r2 = 0;
  let d2 = 0;
  let c2 = 0;
  const magnitude = plane.colour?.magnitude;
  for (let y = by * STRIDE; y < by * STRIDE + BLOCK; y++) {
    for (let x = bx * STRIDE; x < bx * STRIDE + BLOCK; x++) {
      const i = y * width + x;
      if (valid[i] === 0) continue;
      r2 += (plane.residual[i] as number) ** 2;
      d2 += (plane.detail[i] as number) ** 2;
      if (magnitude !== undefined) c2 += (magnitude[i] as number) ** 2;
    }
  }
  stat.rms[b] = Math.sqrt(r2 / shown);
  stat.detail[b] = Math.sqrt(d2 / shown);
  stat.colour[b] = Math.sqrt(c2 / shown);
}

/**
 * The detail share is measured on the blocks above this rank of detail: where the most detail
 * is, what misplacement and resampling leave is largest relative to it (and a copy of few
 * detailed blocks, text on a flat page, would otherwise measure its share on flat ones).
 */
const DETAILED_FROM = 0.75;
/** Lowest noise floor and detail share assumed, whatever the copy measures. */
const MIN_FLOOR = 2;
const MIN_SHARE = 0.25;
/**
 * Highest noise floor and detail share granted, whatever the copy measures: well above what any
 * honest copy of the evaluation measured (README.md#content). A large edit over the flattest or
 * the most detailed blocks moves their medians, and a bar raised by the edit would hide it.
 */
const MAX_FLOOR = 6;
const MAX_SHARE = 1;

/**
 * The noise floor (the residual of the flattest blocks) and the share of detail an honest copy
 * leaves (the residual of the most detailed blocks beyond the floor), as medians: a local edit
 * covers too little of the picture to move them.
 */
function honestResidual(
  stat: PlaneBlocks,
  compared: Uint8Array,
  colourShare: number,
  minShare: number,
): Calibration {
  const { rms, detail } = stat;
  const blocks: number[] = [];
  for (let b = 0; b < compared.length; b++) if (compared[b] === 1) blocks.push(b);
  if (blocks.length === 0) return { floor: MIN_FLOOR, share: minShare, colourShare };
  blocks.sort((p, q) => (detail[p] as number) - (detail[q] as number));
  const flat = blocks.slice(0, Math.max(1, Math.floor(blocks.length * 0.4)));
  const floor = clamp(median(flat.map((b) => rms[b] as number)), MIN_FLOOR, MAX_FLOOR);
  const detailed = blocks.slice(Math.floor(blocks.length * DETAILED_FROM));
  const share = clamp(
    median(
      detailed
        .filter((b) => (detail[b] as number) > 1)
        .map(
          (b) =>
            Math.sqrt(Math.max(0, (rms[b] as number) ** 2 - floor * floor)) / (detail[b] as number),
        ),
    ),
    minShare,
    Math.max(minShare, MAX_SHARE),
  );
  return { floor, share, colourShare };
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/**
 * Each pixel's residual over the honest expectation of its plane (as blockScores judges blocks,
 * with the calibration it measured), the larger of the planes'.
 */
export function pixelScores(
  planes: readonly ResidualPlane[],
  calibration: readonly Calibration[],
  valid: Uint8Array,
): Float32Array {
  const out = new Float32Array(valid.length);
  for (let k = 0; k < planes.length; k++) {
    planeScores(planes[k] as ResidualPlane, calibration[k] as Calibration, valid, out);
  }
  return out;
}

/** One plane's pixel scores, each kept in `out` where it is larger than the others'. */
function planeScores(
  plane: ResidualPlane,
  { floor, share, colourShare }: Calibration,
  valid: Uint8Array,
  out: Float32Array,
): void {
  const magnitude = plane.colour?.magnitude;
  const { detail, residual } = plane;
  for (let i = 0; i < valid.length; i++) {
    if (valid[i] === 0) continue;
    const colour = magnitude === undefined ? 0 : (magnitude[i] as number);
    const expected = Math.sqrt(
      floor * floor + (share * (detail[i] as number)) ** 2 + (colourShare * colour) ** 2,
    );
    const score = Math.abs(residual[i] as number) / expected;
    if (score > (out[i] as number)) out[i] = score;
  }
}
