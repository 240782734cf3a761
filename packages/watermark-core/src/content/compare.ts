// compareContent: a copy against the reference of the output its mark was issued in. The mark's
// geometry places the copy inside the original (scale, rotation, mirroring, and the grid offset
// modulo one tile); the lattice positions it leaves open are ranked coarsely and the best few
// aligned finely. Then what the whole copy does (tones, colours, softness) is fitted, and what is
// left over, region by region, is an edit (some regions), another picture (most of it), or
// nothing. See docs/verification.md.
import {
  type Alignment,
  alignPlacement,
  type Drift,
  driftOf,
  matchLuma,
  type PatchCheck,
} from './alignment.ts';
import { BLOCK, blockScores, type Calibration, pixelScores } from './block-scores.ts';
import { type ContentInput, decodePair } from './decode.ts';
import { coarseDetail, rankPlacements } from './lattice-search.ts';
import { type MarkLevel, type MarkStrengths, markLevel, markStrengths } from './mark-scale.ts';
import { maskBounds, maskedBlur, subtract, without } from './masked-filters.ts';
import { latticePlacements, type Placement, type Size, toCopy } from './placement.ts';
import { flaggedRegions, type Region, type RegionThresholds, tightenBox } from './regions.ts';
import {
  fittedResiduals,
  prepareResiduals,
  type Reference,
  type WarpedCopy,
  warpForResiduals,
} from './residuals.ts';
import { correlation, type DecodedCopy, type Frame } from './warp.ts';
import { zoomSearch } from './zoom-search.ts';

export type ContentState = 'same' | 'edited' | 'differs' | 'not_compared';

export interface ContentComparison {
  readonly state: ContentState;
  /** Share of the original the copy shows, 0 to 1; null when not compared. */
  readonly coverage: number | null;
  /** Share of what the copy shows that matches the original, 0 to 1; null when not compared. */
  readonly similarity: number | null;
  /** Where the copy differs from the original, in the copy's pixels (only when `edited`). */
  readonly regions: readonly Region[];
  /** How the decision was reached (for evaluation and logs; not part of any report). */
  readonly measures?: Measures;
}

/** How the decision was reached (for evaluation and logs; not part of any report). */
export interface Measures {
  readonly correlation: number;
  readonly detail: number;
  readonly share: number;
  readonly locked: number;
  /** The alignment's correction to the mark's scale (a share) and turn (degrees). */
  readonly scaleDrift: number;
  readonly turnDrift: number;
  /** Whether the alignment refused a correction beyond the mark's precision. */
  readonly refused: boolean;
  /** The honest residual measured on the copy, per plane (luma, chroma, detail lost). */
  readonly calibration: readonly Calibration[];
  /**
   * The mark's pilot strength (z-score) at its geometry's lattice and at that lattice moved by
   * the content's correction; only when the correction was large enough to check.
   */
  readonly markAtMark?: number;
  readonly markAtContent?: number;
  /**
   * When the evidence was short of certain: the zoom (against the aligned placement) whose
   * coarse detail matched best, its correlation and the best at the placement's own zoom; and
   * the mark's strengths at its geometry and carried by that zoom, when it matched clearly better.
   */
  readonly zoom?: number;
  readonly zoomCorrelation?: number;
  readonly ownZoomCorrelation?: number;
  readonly atZoom?: {
    readonly correlation: number;
    readonly share: number;
    readonly locked: number;
    readonly refused: boolean;
  };
  readonly zoomMarkAtMark?: number;
  readonly zoomMarkAtContent?: number;
}

/**
 * A block stands out when its residual is `strong` times an honest copy's; a region grows into
 * neighbours over `weak`, holds at least `minStrongBlocks` clear blocks (fewer is a speck, not an
 * edit), and regions `bridge` blocks apart are one.
 */
const REGIONS: RegionThresholds = { strong: 3.5, weak: 2.2, minStrongBlocks: 6, bridge: 3 };
/** More than this share differing is another picture, not an edit of this one. */
const DIFFERS_SHARE = 0.5;
/** A pixel of a region stands out (for its box) at this many times an honest copy's residual. */
const PIXEL_THRESHOLD = 3;
/** Fine detail compared for the same-picture evidence: between these blurs (reference pixels). */
const DETAIL_BAND: readonly [number, number] = [1, 4];
/** Below this detail correlation where the copy agrees, it is another picture. */
const MIN_SAME_CORRELATION = 0.5;
/**
 * Detail outside the regions following the reference this closely is the picture beyond doubt:
 * above what transplants onto another photo reached in the evaluation (README.md#content); a
 * second shot may follow as closely, so its placement must also be where the mark put it.
 */
const TRUSTED_CORRELATION = 0.98;
/** A placement agreeing everywhere with this detail correlation ends the search. */
const CERTAIN_CORRELATION = 0.9;
/** Below this share of detailed patches in place, the copy's content is not locked to its mark. */
const MIN_LOCKED = 0.4;
/**
 * When the content lies further from the mark's placement than the mark usually errs (a second
 * shot of the scene, framed a little tighter), fewer detailed patches than this in place is
 * another picture: an honest copy has nearly all of them in place.
 */
const LOCKED_OFF_MARK = 0.9;
/**
 * A scale correction beyond this share is more than honest copies needed in the evaluation
 * (README.md#content).
 */
const OFF_MARK_SCALE = 0.015;
/** A scale correction beyond this share is checked against the mark itself (mark-scale.ts). */
const PROBE_SCALE = 0.005;
/** A zoom this far from the aligned placement's is beyond any error of the mark's geometry. */
const MIN_ZOOM = 0.025;
/** The mark's pilot z-score at its geometry must be at least this to say it stayed there. */
const MIN_MARK_Z = 8;
/**
 * The mark stayed behind when its strength where the content lies is under this share of its
 * strength at its geometry's lattice.
 */
const MARK_FOLLOWS = 0.5;
/** Below this RMS of reference detail (luma levels) there is nothing to tell pictures apart by. */
const MIN_DETAIL = 0.6;
/** Less of the original than this is too little to judge. */
const MIN_COVERAGE = 0.02;

export const NOT_COMPARED: ContentComparison = {
  state: 'not_compared',
  coverage: null,
  similarity: null,
  regions: [],
};

export async function compareContent(
  copyImage: Uint8Array,
  input: ContentInput,
): Promise<ContentComparison> {
  const {
    copy,
    copySize,
    frame,
    prepared: reference,
  } = await decodePair(copyImage, input, prepareReference);

  const candidates = rankPlacements(
    copy,
    latticePlacements(input.geometry, input.original, copySize),
    reference,
    frame,
  );
  const tryAll = (placements: readonly Placement[], start: Judged | null): Judged | null => {
    let best = start;
    for (const candidate of placements) {
      const judged = judge(
        copy,
        alignPlacement(copy, candidate, reference, frame),
        reference,
        frame,
      );
      if (best === null || judged.badness < best.badness) best = judged;
      // A placement where all of the copy agrees is the one: the others need not be tried.
      if (judged.share === 0 && judged.correlation >= CERTAIN_CORRELATION) break;
    }
    return best;
  };
  let best = tryAll(candidates.finalists, null);
  // Another picture is said only when the placements ranked lower disagree as well.
  if (best !== null && differs(best)) best = tryAll(candidates.others, best);
  if (best === null || best.coverage < MIN_COVERAGE) return NOT_COMPARED;
  const coverage = round(best.coverage);
  const similarity = round(1 - best.share);
  let measures: Measures = {
    correlation: round(best.correlation),
    detail: round(best.detail),
    share: round(best.share),
    locked: round(best.locked),
    scaleDrift: Math.round(best.drift.scale * 10_000) / 10_000,
    turnDrift: round(best.drift.turn),
    refused: best.refused,
    calibration: best.calibration.map((plane) => ({
      floor: round(plane.floor),
      share: round(plane.share),
      colourShare: round(plane.colourShare),
    })),
  };
  // Too little detail where the copy agrees to tell this picture from another: no verdict.
  if (best.detail < MIN_DETAIL) return { ...NOT_COMPARED, measures };
  if (differs(best)) {
    return { state: 'differs', coverage, similarity, regions: [], measures };
  }
  // The content sits at another scale or turn than the mark's geometry says: whether the mark's
  // own tiles follow the content (the geometry erred) or stayed where it says (another shot).
  // The copy decoded as the detector reads it, once, for either check below.
  let markCopy: Promise<MarkLevel> | undefined;
  const markStrengthsAt = async (drift: Drift) => {
    markCopy ??= markLevel(copyImage, copySize, input.maxPixels);
    return markStrengths(await markCopy, input.geometry, drift);
  };
  if (best.refused || Math.abs(best.drift.scale) > PROBE_SCALE) {
    const strengths = await markStrengthsAt(best.drift);
    measures = {
      ...measures,
      markAtMark: round(strengths.atMark),
      markAtContent: round(strengths.atContent),
    };
    if (markLeftBehind(strengths)) {
      return { state: 'differs', coverage, similarity, regions: [], measures };
    }
  }
  // Evidence short of certain: the content may lie at another zoom than its mark.
  if (best.share > 0 || best.correlation < CERTAIN_CORRELATION || best.locked < LOCKED_OFF_MARK) {
    const match = zoomSearch(copy, best.placement, reference, frame);
    // The coarse zoom is a step apart from the content's at most; an alignment that stopped at
    // its limit goes on from where it stopped.
    let zoomedAlignment = alignPlacement(copy, match.placement, reference, frame);
    for (let round = 1; round < ZOOM_ALIGNMENTS && zoomedAlignment.refused !== null; round++) {
      zoomedAlignment = alignPlacement(copy, zoomedAlignment.placement, reference, frame);
    }
    const atZoom = judge(copy, zoomedAlignment, reference, frame);
    const zoomDrift = driftOf(best.placement, atZoom.placement, frame);
    measures = {
      ...measures,
      zoom: Math.round((1 + zoomDrift.scale) * 10_000) / 10_000,
      zoomCorrelation: round(match.correlation),
      ownZoomCorrelation: round(match.atOwnZoom),
      atZoom: {
        correlation: round(atZoom.correlation),
        share: round(atZoom.share),
        locked: round(atZoom.locked),
        refused: atZoom.refused,
      },
    };
    if (Math.abs(zoomDrift.scale) >= MIN_ZOOM && clearlyBetter(atZoom, best)) {
      const strengths = await markStrengthsAt({
        scale: (1 + best.drift.scale) * (1 + zoomDrift.scale) - 1,
        turn: best.drift.turn + zoomDrift.turn,
        shift: 0,
      });
      measures = {
        ...measures,
        zoomMarkAtMark: round(strengths.atMark),
        zoomMarkAtContent: round(strengths.atContent),
      };
      if (markLeftBehind(strengths)) {
        return { state: 'differs', coverage, similarity, regions: [], measures };
      }
    }
  }
  const placement = best.placement;
  const shownBox = inCopy(best.shownBox, placement, frame, copySize);
  const regions = reportedBoxes(best)
    .map((box) => inCopy(box, placement, frame, copySize))
    .filter((box) => box.width > 0 && box.height > 0 && !isEdgeBand(box, shownBox));
  if (regions.length === 0) return { state: 'same', coverage, similarity, regions: [], measures };
  return { state: 'edited', coverage, similarity, regions, measures };
}

/** What every comparison makes of the reference, made while the copy is still being decoded. */
function prepareReference(reference: Reference, frame: Frame): Reference {
  coarseDetail(reference, frame);
  matchLuma(reference);
  prepareResiduals(reference);
  return reference;
}

/** A band across this share of the shown picture, at its edge, is an overlay (see isEdgeBand). */
const BAND_SPAN = 0.6;
/** A band is at most this thick for its length (a bar, not a block). */
const BAND_THICKNESS = 0.3;
/** How near the shown picture's edge a band reaches, as a share of its height or width. */
const BAND_EDGE = 0.02;

/**
 * A thin region along an edge of the shown picture and across most of it: a screen's app bar, a
 * caption strip or a frame a viewer drew over the copy. It hides the picture rather than
 * changing what it shows, so it is not reported as an edit (an honest screenshot must never be
 * accused; an edit shaped like one goes unreported, which is the safer error).
 */
function isEdgeBand(box: Region, shown: Region): boolean {
  const near = (a: number, b: number, extent: number) =>
    Math.abs(a - b) <= Math.max(BLOCK, BAND_EDGE * extent);
  const across = box.width >= BAND_SPAN * shown.width && box.height <= BAND_THICKNESS * box.width;
  const down = box.height >= BAND_SPAN * shown.height && box.width <= BAND_THICKNESS * box.height;
  const atTopOrBottom =
    near(box.y, shown.y, shown.height) ||
    near(box.y + box.height, shown.y + shown.height, shown.height);
  const atLeftOrRight =
    near(box.x, shown.x, shown.width) ||
    near(box.x + box.width, shown.x + shown.width, shown.width);
  return (across && atTopOrBottom) || (down && atLeftOrRight);
}

/** Whether the alignment had to move (or refused to move) the content further than the mark errs. */
function offMark(judged: Pick<Judged, 'refused' | 'drift'>): boolean {
  return judged.refused || Math.abs(judged.drift.scale) > OFF_MARK_SCALE;
}

/**
 * Whether the content placed at another zoom agrees clearly better than at the mark's: its fine
 * detail following the reference's closely and better, hardly more of it differing, and its
 * detailed patches locked in place (soft pictures place few of them).
 */
function clearlyBetter(atZoom: Judged, own: Judged): boolean {
  return (
    atZoom.correlation >= CERTAIN_CORRELATION &&
    atZoom.correlation >= own.correlation + ZOOM_GAIN &&
    atZoom.share <= own.share + ZOOM_SHARE_SLACK &&
    atZoom.locked >= MIN_LOCKED
  );
}

/** Alignments run from a zoom's coarse placement at most. */
const ZOOM_ALIGNMENTS = 3;
/** How much better the detail must follow at another zoom than at the mark's. */
const ZOOM_GAIN = 0.02;
/**
 * How much more may differ at another zoom: a second shot is resampled and re-exposed, which
 * leaves a little more than the mark's own output does.
 */
const ZOOM_SHARE_SLACK = 0.02;

/**
 * Whether the mark stayed at its geometry's lattice while the content lies elsewhere: the mark is
 * clearly seen where its geometry says, and far more weakly where the content's correction would
 * carry it. In an honest copy mark and picture moved together, so it is the other way round (or
 * alike, when the correction was within the mark's own error).
 */
function markLeftBehind(strengths: MarkStrengths): boolean {
  return strengths.atMark >= MIN_MARK_Z && strengths.atContent < MARK_FOLLOWS * strengths.atMark;
}

/** Whether a placement's comparison, either of its scorings, says the copy is another picture. */
function differs(judged: Judged): boolean {
  if (differsBy(judged, judged)) return true;
  const second = judged.second();
  return second !== null && differsBy(second, judged);
}

function differsBy(
  scoring: Pick<Scoring, 'correlation' | 'share' | 'locked'>,
  placed: Pick<Judged, 'refused' | 'drift'>,
): boolean {
  return (
    scoring.correlation < MIN_SAME_CORRELATION ||
    scoring.share > DIFFERS_SHARE ||
    scoring.locked < MIN_LOCKED ||
    (offMark(placed) && scoring.locked < LOCKED_OFF_MARK)
  );
}

/** One scoring of a placed copy: what stands out, and how the rest agrees. */
interface Scoring {
  readonly share: number;
  /** Correlation of the fine detail of copy and reference, outside the flagged regions. */
  readonly correlation: number;
  /** RMS of the reference's fine detail where the copy shows it. */
  readonly detail: number;
  /** The regions, tightened to their pixels; `flagged` as the blocks grew them. */
  readonly boxes: Region[];
  readonly flagged: Region[];
  /** Share of the detailed patches where the placement puts them (alignPlacement). */
  readonly locked: number;
  readonly calibration: readonly Calibration[];
  readonly coverage: number;
  /** Bounding box of the reference pixels the copy shows. */
  readonly shownBox: Region;
}

/** A placement judged: its first scoring, which sees the copy whole, and what follows from it. */
interface Judged extends Scoring {
  readonly placement: Placement;
  /**
   * Where something stood out: the copy scored again with it left out of the fits (see judge),
   * whose regions are the ones reported; null when nothing stood out, or the first scoring
   * already said another picture. Made when first asked: only the placement chosen needs it.
   */
  readonly second: () => Scoring | null;
  /** The correction the alignment made to the mark's placement, or the one it refused. */
  readonly drift: Drift;
  /** Whether the alignment refused a correction beyond the mark's precision. */
  readonly refused: boolean;
  /** For choosing among placements: the least agreeing detail, the most differing area. */
  readonly badness: number;
}

/** The regions a judged placement reports: its second scoring's, when it was scored again. */
function reportedBoxes(judged: Judged): readonly Region[] {
  return judged.second()?.boxes ?? judged.boxes;
}

function judge(
  copy: DecodedCopy,
  alignment: Alignment,
  reference: Reference,
  frame: Frame,
): Judged {
  const { placement } = alignment;
  const warped = warpForResiduals(copy, placement, frame);
  const placed = {
    refused: alignment.refused !== null,
    drift: alignment.refused ?? alignment.drift,
  };
  const first = scoring(warped, alignment, reference, frame, null);
  // An edit bends what was fitted to the whole copy towards it (a region recoloured moves the
  // colour map, its residual raises the honest bar), so the regions found first spill into their
  // surroundings or fall short of the edit: scored again with them left out of the fits, the
  // edit stands out whole and its surroundings do not, and nothing standing out then was the
  // fits' own bend. Either scoring saying another picture is enough (the first sees the copy
  // whole; the second does not let a region hide what differs around it).
  let second: Scoring | null | undefined;
  const scoredAgain = () => {
    if (second === undefined) {
      second =
        first.flagged.length > 0 && !differsBy(first, placed)
          ? scoring(warped, alignment, reference, frame, boxMask(first.flagged, frame))
          : null;
    }
    return second;
  };
  return {
    ...first,
    ...placed,
    placement,
    second: scoredAgain,
    badness: first.share - first.correlation - first.locked,
  };
}

/**
 * The copy's residual against the reference, fitted on the pixels outside `exclude` (and, when
 * some are excluded, with a colour map that gives far samples no weight), scored in blocks whose
 * honest residual is measured outside `exclude` too.
 */
function scoring(
  warped: WarpedCopy,
  alignment: Alignment,
  reference: Reference,
  frame: Frame,
  exclude: Uint8Array | null,
): Scoring {
  const residuals = fittedResiduals(warped, reference, frame, exclude);
  const blocks = blockScores(residuals.planes, residuals.valid, frame.width, frame.height, exclude);
  const flagged = flaggedRegions(blocks, REGIONS);
  const scores = pixelScores(residuals.planes, blocks.calibration, residuals.valid);
  const boxes = flagged.boxes.map((box) => tightenBox(box, scores, frame.width, PIXEL_THRESHOLD));
  const agreeing = without(residuals.valid, boxMask(flagged.boxes, frame));
  const evidence = detailAgreement(
    residuals.referenceLuma,
    residuals.copyLuma,
    residuals.valid,
    agreeing,
    frame,
  );
  // Where the regions hold nearly all the detailed patches, the few outside them are all there
  // is to say whether the content lies where the mark does, unless what lies outside is the
  // picture beyond doubt (its detail follows the reference's closely, it covers most of the
  // copy, and the alignment kept the mark's scale): then the regions are an edit of detailed
  // content, not a sign of another picture.
  const trusted =
    flagged.share <= DIFFERS_SHARE &&
    evidence.correlation >= TRUSTED_CORRELATION &&
    alignment.refused === null &&
    Math.abs(alignment.drift.scale) <= PROBE_SCALE;
  return {
    share: flagged.share,
    correlation: evidence.correlation,
    detail: evidence.detail,
    boxes,
    flagged: flagged.boxes,
    locked: lockedShare(alignment.patches, boxes, trusted),
    calibration: blocks.calibration,
    coverage: residuals.shown,
    shownBox: maskBounds(residuals.valid, frame.width) ?? { x: 0, y: 0, width: 0, height: 0 },
  };
}

/**
 * Share of the detailed patches outside the regions found edited that the copy shows in place
 * (all patches when the regions cover nearly all, unless what lies outside them is `trusted`;
 * 1 with too few to tell).
 */
function lockedShare(
  patches: readonly PatchCheck[],
  boxes: readonly Region[],
  trusted: boolean,
): number {
  const outsideEdits = patches.filter(
    (patch) =>
      !boxes.some(
        (box) =>
          patch.x >= box.x - PATCH_MARGIN &&
          patch.x <= box.x + box.width + PATCH_MARGIN &&
          patch.y >= box.y - PATCH_MARGIN &&
          patch.y <= box.y + box.height + PATCH_MARGIN,
      ),
  );
  // Regions covering nearly all the detailed patches are no reason to trust the placement:
  // then all of them are counted.
  const counted = outsideEdits.length >= MIN_PATCHES || trusted ? outsideEdits : patches;
  if (counted.length < MIN_PATCHES) return 1;
  return counted.filter((patch) => patch.inPlace).length / counted.length;
}

/** A patch centre this close to an edited region overlaps it (half a patch). */
const PATCH_MARGIN = 20;
/** Fewer detailed patches than this say nothing about locking. */
const MIN_PATCHES = 4;

/** 1 inside the boxes, widened by a block: where an edit was found. */
function boxMask(boxes: readonly Region[], frame: Frame): Uint8Array {
  const { width, height } = frame;
  const mask = new Uint8Array(width * height);
  for (const box of boxes) {
    const y1 = Math.min(height, box.y + box.height + BLOCK);
    const x0 = Math.max(0, box.x - BLOCK);
    const x1 = Math.min(width, box.x + box.width + BLOCK);
    for (let y = Math.max(0, box.y - BLOCK); y < y1; y++)
      mask.fill(1, y * width + x0, y * width + x1);
  }
  return mask;
}

/**
 * How well the copy's fine detail (a band of a difference of blurs) follows the reference's, and
 * how much detail the reference has where the copy shows it: a copy of this picture follows it closely; another
 * picture, however alike in tones, does not.
 */
function detailAgreement(
  reference: Float32Array,
  copy: Float32Array,
  valid: Uint8Array,
  agreeing: Uint8Array,
  frame: Frame,
): { correlation: number; detail: number } {
  const { width, height } = frame;
  const band = (plane: Float32Array) =>
    subtract(
      maskedBlur(plane, valid, width, height, DETAIL_BAND[0]),
      maskedBlur(plane, valid, width, height, DETAIL_BAND[1]),
    );
  const referenceBand = band(reference);
  let n = 0;
  let energy = 0;
  for (let i = 0; i < valid.length; i++) {
    if (valid[i] === 0) continue;
    n++;
    energy += (referenceBand[i] as number) ** 2;
  }
  if (n < 64) return { correlation: 0, detail: 0 };
  return {
    correlation: correlation(referenceBand, band(copy), agreeing),
    detail: Math.sqrt(energy / n),
  };
}

/** A box in the reference's pixels as the copy shows it: the bounding box of its corners. */
function inCopy(box: Region, placement: Placement, frame: Frame, copy: Size): Region {
  const corners = [
    [box.x, box.y],
    [box.x + box.width, box.y],
    [box.x, box.y + box.height],
    [box.x + box.width, box.y + box.height],
  ].map(([x, y]) => toCopy(placement, (x as number) / frame.scaleX, (y as number) / frame.scaleY));
  const x0 = Math.max(0, Math.floor(Math.min(...corners.map((p) => p.x))));
  const y0 = Math.max(0, Math.floor(Math.min(...corners.map((p) => p.y))));
  const x1 = Math.min(copy.width, Math.ceil(Math.max(...corners.map((p) => p.x))));
  const y1 = Math.min(copy.height, Math.ceil(Math.max(...corners.map((p) => p.y))));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
