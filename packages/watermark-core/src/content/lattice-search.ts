// Which lattice position the copy is: each placement the mark allows is scored on coarse detail
// (a difference of blurs, so a smooth sky or gradient does not correlate with itself shifted by a
// tile), weighted by how much of the copy it explains. The best few go on to the fine comparison:
// a low-detail crop can look alike one tile apart, and the fine comparison tells them apart.
import { subtract } from './masked-filters.ts';
import type { Placement } from './placement.ts';
import { gaussianBlur } from './planes.ts';
import type { Reference } from './residuals.ts';
import { correlation, type DecodedCopy, type Frame, warpCopy } from './warp.ts';

/** Long side of the coarse frame the positions are ranked in (reference pixels are averaged to it). */
const COARSE_SIDE = 128;
/** Candidates passed on, at most, and how close to the best they must rank. */
const FINALISTS = 6;
const FINALIST_RANK = 0.8;
/** Further candidates, in rank order, for when no finalist is the picture (see compareContent). */
const OTHERS = 12;

/**
 * The best few placements, and the next ones: coarse detail can rank the true position low (fog,
 * a plain sky), and a copy is not called another picture before those were tried too.
 */
export interface RankedPlacements {
  readonly finalists: Placement[];
  readonly others: Placement[];
}

export function rankPlacements(
  copy: DecodedCopy,
  placements: readonly Placement[],
  reference: Reference,
  frame: Frame,
): RankedPlacements {
  if (placements.length === 0) return { finalists: [], others: [] };
  const { factor, coarse, detail: referenceDetail } = coarseDetail(reference, frame);
  const coarseFrame: Frame = {
    width: coarse.width,
    height: coarse.height,
    scaleX: frame.scaleX / factor,
    scaleY: frame.scaleY / factor,
  };
  const { width, height } = copy.planes;
  const copyDetail = subtract(
    gaussianBlur(copy.planes.y, width, height, factor / 2),
    gaussianBlur(copy.planes.y, width, height, factor * 3),
  );
  // How much of the copy each placement explains, estimated on a sparse grid first: only those
  // that may show at least half of what the best shows are resampled.
  const estimates = placements.map((placement) => shownEstimate(copy, placement, coarseFrame));
  const mostEstimated = Math.max(...estimates);
  const plausible = placements.filter(
    (_, k) => (estimates[k] as number) >= ESTIMATE_SHARE * mostEstimated,
  );
  const tried = plausible.map((placement) => {
    const warped = warpCopy(copy, placement, coarseFrame, {
      chroma: false,
      margin: 1,
      luma: copyDetail,
    });
    const score = warped.count < 16 ? 0 : correlation(referenceDetail, warped.y, warped.valid);
    return { placement, count: warped.count, score };
  });
  const most = Math.max(...tried.map((t) => t.count));
  if (most === 0) return { finalists: [], others: [] };
  // A placement showing less of the copy's picture is less likely, as well as less measured;
  // one showing under half of what the best shows is not considered.
  const ranked = tried
    .filter((t) => t.count >= most / 2)
    .map((t) => ({ placement: t.placement, rank: t.score * Math.sqrt(t.count / most) }))
    .sort((p, q) => q.rank - p.rank);
  const top = (ranked[0] as (typeof ranked)[number]).rank;
  const finalists = Math.min(
    FINALISTS,
    ranked.filter((r, k) => k === 0 || r.rank >= FINALIST_RANK * top).length,
  );
  return {
    finalists: ranked.slice(0, finalists).map((r) => r.placement),
    others: ranked.slice(finalists, finalists + OTHERS).map((r) => r.placement),
  };
}

/**
 * The reference's coarse frame and its detail (a difference of blurs), taken once on each side
 * (the copy's in its own pixels, then resampled per placement). Made before any copy is placed.
 */
export function coarseDetail(
  reference: Reference,
  frame: Frame,
): { factor: number; coarse: { width: number; height: number }; detail: Float32Array } {
  return reference.memo.get('coarse-detail', () => {
    const factor = Math.max(1, Math.round(Math.max(frame.width, frame.height) / COARSE_SIDE));
    const coarse = downsample(reference.y, reference.width, reference.height, factor);
    const detail = subtract(
      gaussianBlur(coarse.plane, coarse.width, coarse.height, 0.7),
      gaussianBlur(coarse.plane, coarse.width, coarse.height, 3),
    );
    return { factor, coarse: { width: coarse.width, height: coarse.height }, detail };
  });
}

/** Placements estimated to show less than this share of the best's are not resampled. */
const ESTIMATE_SHARE = 0.4;
/** Spacing of the sparse grid the estimate samples (coarse pixels). */
const ESTIMATE_STEP = 4;

/** The share of a sparse grid of the frame's pixels that the placement finds inside the copy. */
function shownEstimate(copy: DecodedCopy, placement: Placement, frame: Frame): number {
  const { density } = copy;
  const { width, height } = copy.planes;
  let inside = 0;
  let total = 0;
  for (let v = ESTIMATE_STEP / 2; v < frame.height; v += ESTIMATE_STEP) {
    const oy = v / frame.scaleY;
    for (let u = ESTIMATE_STEP / 2; u < frame.width; u += ESTIMATE_STEP) {
      const ox = u / frame.scaleX;
      // toCopy, written out: no object per point of every placement.
      const px = (placement.a * ox + placement.b * oy + placement.tx) * density;
      const py = (placement.c * ox + placement.d * oy + placement.ty) * density;
      total++;
      if (px >= 0 && py >= 0 && px < width && py < height) inside++;
    }
  }
  return total === 0 ? 0 : inside / total;
}

/** Mean over factor x factor cells. */
function downsample(
  plane: Float32Array,
  width: number,
  height: number,
  factor: number,
): { plane: Float32Array; width: number; height: number } {
  const w = Math.floor(width / factor);
  const h = Math.floor(height / factor);
  const out = new Float32Array(w * h);
  const weight = 1 / (factor * factor);
  for (let y = 0; y < h * factor; y++) {
    const row = Math.floor(y / factor) * w;
    for (let x = 0; x < w * factor; x++) {
      const o = row + Math.floor(x / factor);
      out[o] = (out[o] as number) + (plane[y * width + x] as number) * weight;
    }
  }
  return { plane: out, width: w, height: h };
}
