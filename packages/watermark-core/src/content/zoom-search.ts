// Whether the copy's content lies at another zoom than its mark. The alignment corrects only as
// far as the mark's geometry can err, so a mark moved onto a second shot of the scene, framed a
// few percent tighter or wider, leaves content it cannot follow: a few patches near the zoom's
// centre still agree, the rest looks edited or is too soft to tell. Here the copy's coarse detail
// is matched against the reference's at zooms beyond the mark's error, each with a search over
// position, and the best is compared with the match at the mark's own zoom.
import { coarseDetail } from './lattice-search.ts';
import { subtract } from './masked-filters.ts';
import type { Placement } from './placement.ts';
import { gaussianBlur } from './planes.ts';
import type { Reference } from './residuals.ts';
import { type DecodedCopy, type Frame, warpCopy } from './warp.ts';

/** Zooms tried (besides the mark's own): beyond the mark's error, as far as a reframing goes. */
const ZOOMS: readonly number[] = (() => {
  const zooms: number[] = [];
  for (let step = 3; step <= 12; step++) zooms.push(1 + step / 100, 1 / (1 + step / 100));
  return zooms;
})();
/** Position searched at the mark's own zoom (coarse pixels): what the alignment left. */
const OWN_REACH = 2;

export interface ZoomMatch {
  /** The zoom (against the aligned placement) whose coarse detail matched best. */
  readonly zoom: number;
  /** Its correlation, and the best at the aligned placement's own zoom. */
  readonly correlation: number;
  readonly atOwnZoom: number;
  /** The placement at that zoom and position (coarse: to be aligned). */
  readonly placement: Placement;
}

/**
 * The best coarse match of the copy at zooms beyond the mark's error about the frame's centre,
 * each at its best position, and the best at `placement`'s own zoom.
 */
export function zoomSearch(
  copy: DecodedCopy,
  placement: Placement,
  reference: Reference,
  frame: Frame,
): ZoomMatch {
  const { factor, coarse, detail } = coarseDetail(reference, frame);
  const coarseFrame: Frame = {
    width: coarse.width,
    height: coarse.height,
    scaleX: frame.scaleX / factor,
    scaleY: frame.scaleY / factor,
  };
  const copyDetail = copy.memo.get('coarse-copy-detail', () => {
    const { width, height } = copy.planes;
    return subtract(
      gaussianBlur(copy.planes.y, width, height, factor / 2),
      gaussianBlur(copy.planes.y, width, height, factor * 3),
    );
  });
  // A match must cover most of what the copy shows at its own placement.
  const shown = warpCopy(copy, placement, coarseFrame, { chroma: false, margin: 1 }).count;
  const matchAt = (zoom: number, reach: number) =>
    bestShift(
      copy,
      copyDetail,
      zoomed(placement, zoom, coarseFrame),
      coarseFrame,
      detail,
      reach,
      MIN_OVERLAP * shown,
    );
  const atOwnZoom = matchAt(1, OWN_REACH).correlation;
  let best = { zoom: 1, match: { correlation: Number.NEGATIVE_INFINITY, dx: 0, dy: 0 } };
  for (const zoom of ZOOMS) {
    // The zoom's centre may be anywhere in the frame: the position is searched as far as it moves
    // the frame's edges.
    const reach =
      Math.ceil((Math.abs(zoom - 1) * Math.max(coarse.width, coarse.height)) / 2) + OWN_REACH;
    const match = matchAt(zoom, reach);
    if (match.correlation > best.match.correlation) best = { zoom, match };
  }
  return {
    zoom: best.zoom,
    correlation: best.match.correlation,
    atOwnZoom,
    placement: moved(
      zoomed(placement, best.zoom, coarseFrame),
      best.match.dx,
      best.match.dy,
      coarseFrame,
    ),
  };
}

/** `placement` zoomed by `zoom` about the original's point at the frame's centre. */
function zoomed(placement: Placement, zoom: number, frame: Frame): Placement {
  const cx = frame.width / 2 / frame.scaleX;
  const cy = frame.height / 2 / frame.scaleY;
  const { a, b, c, d, tx, ty } = placement;
  // P(centre + zoom (q - centre)).
  const ox = cx - zoom * cx;
  const oy = cy - zoom * cy;
  return {
    a: a * zoom,
    b: b * zoom,
    c: c * zoom,
    d: d * zoom,
    tx: a * ox + b * oy + tx,
    ty: c * ox + d * oy + ty,
  };
}

/** Fewer pixels in common than this share of what the copy shows are not a match. */
const MIN_OVERLAP = 0.5;

/**
 * The best correlation of the reference's coarse detail with the copy's, placed by `placement`
 * and moved by whole coarse pixels up to `reach` either way.
 */
function bestShift(
  copy: DecodedCopy,
  copyDetail: Float32Array,
  placement: Placement,
  frame: Frame,
  reference: Float32Array,
  reach: number,
  minCount: number,
): Shifted {
  const { width, height } = frame;
  // The copy resampled into the frame widened by `reach` on every side.
  const wide: Frame = { ...frame, width: width + 2 * reach, height: height + 2 * reach };
  const ox = reach / frame.scaleX;
  const oy = reach / frame.scaleY;
  const shifted: Placement = {
    ...placement,
    tx: placement.tx - placement.a * ox - placement.b * oy,
    ty: placement.ty - placement.c * ox - placement.d * oy,
  };
  const warped = warpCopy(copy, shifted, wide, { chroma: false, margin: 1, luma: copyDetail });
  const ww = wide.width;
  let best: Shifted = { correlation: Number.NEGATIVE_INFINITY, dx: 0, dy: 0 };
  for (let dy = -reach; dy <= reach; dy++) {
    for (let dx = -reach; dx <= reach; dx++) {
      let n = 0;
      let sa = 0;
      let sb = 0;
      let saa = 0;
      let sbb = 0;
      let sab = 0;
      for (let y = 0; y < height; y++) {
        const row = (y + reach + dy) * ww + reach + dx;
        const referenceRow = y * width;
        for (let x = 0; x < width; x++) {
          if (warped.valid[row + x] === 0) continue;
          const p = reference[referenceRow + x] as number;
          const q = warped.y[row + x] as number;
          n++;
          sa += p;
          sb += q;
          saa += p * p;
          sbb += q * q;
          sab += p * q;
        }
      }
      if (n < Math.max(16, minCount)) continue;
      const va = saa - (sa * sa) / n;
      const vb = sbb - (sb * sb) / n;
      if (va <= 0 || vb <= 0) continue;
      const r = (sab - (sa * sb) / n) / Math.sqrt(va * vb);
      if (r > best.correlation) best = { correlation: r, dx, dy };
    }
  }
  return best.correlation === Number.NEGATIVE_INFINITY ? { correlation: 0, dx: 0, dy: 0 } : best;
}

interface Shifted {
  readonly correlation: number;
  /** The copy's content lies this many coarse pixels further along x and y than placed. */
  readonly dx: number;
  readonly dy: number;
}

/** `placement` moved so that the copy's content `dx`, `dy` frame pixels on lands where it is. */
function moved(placement: Placement, dx: number, dy: number, frame: Frame): Placement {
  const ox = dx / frame.scaleX;
  const oy = dy / frame.scaleY;
  return {
    ...placement,
    tx: placement.tx + placement.a * ox + placement.b * oy,
    ty: placement.ty + placement.c * ox + placement.d * oy,
  };
}
