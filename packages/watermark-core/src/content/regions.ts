// From scored blocks to the regions a person is shown. A region grows from blocks that clearly
// stand out into their neighbours that stand out less (hysteresis: an edit's faint margins belong
// to it), is kept when it holds enough clear blocks to be more than chance, and regions close
// together are one edit shown as one box.
import { BLOCK, type BlockGrid, STRIDE } from './block-scores.ts';

/** A rectangle in pixels. */
export interface Region {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface FlaggedArea {
  /** Bounding boxes of the groups, in the grid's pixels. */
  readonly boxes: Region[];
  /** Share of the compared blocks inside the groups. */
  readonly share: number;
}

export interface RegionThresholds {
  /** A block over this stands out clearly. */
  readonly strong: number;
  /** A block over this joins a region it touches. */
  readonly weak: number;
  /** Fewest clear blocks a region holds. */
  readonly minStrongBlocks: number;
  /** Regions this many blocks apart or closer are merged. */
  readonly bridge: number;
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export function flaggedRegions(grid: BlockGrid, thresholds: RegionThresholds): FlaggedArea {
  const { columns, rows, scores, compared } = grid;
  const over = (b: number, level: number) => compared[b] === 1 && (scores[b] as number) > level;
  const label = new Int32Array(columns * rows).fill(-1);
  let comparedCells = 0;
  for (let b = 0; b < compared.length; b++) comparedCells += compared[b] as number;
  const boxes: Box[] = [];
  let flaggedCells = 0;
  for (let start = 0; start < label.length; start++) {
    if (!over(start, thresholds.weak) || label[start] !== -1) continue;
    const members = [start];
    label[start] = 0;
    let strong = 0;
    for (let k = 0; k < members.length; k++) {
      const b = members[k] as number;
      if (over(b, thresholds.strong)) strong++;
      const bx = b % columns;
      const by = (b - bx) / columns;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const x = bx + dx;
          const y = by + dy;
          if (x < 0 || y < 0 || x >= columns || y >= rows) continue;
          const n = y * columns + x;
          if (label[n] === -1 && over(n, thresholds.weak)) {
            label[n] = 0;
            members.push(n);
          }
        }
      }
    }
    if (strong < thresholds.minStrongBlocks) continue;
    const box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
    for (const b of members) {
      const bx = b % columns;
      const by = (b - bx) / columns;
      box.x0 = Math.min(box.x0, bx);
      box.y0 = Math.min(box.y0, by);
      box.x1 = Math.max(box.x1, bx);
      box.y1 = Math.max(box.y1, by);
    }
    boxes.push(box);
    flaggedCells += members.length;
  }
  const inset = (BLOCK - STRIDE) / 2;
  return {
    boxes: merge(boxes, thresholds.bridge).map((box) => ({
      x: box.x0 * STRIDE + inset,
      y: box.y0 * STRIDE + inset,
      width: (box.x1 - box.x0) * STRIDE + BLOCK - 2 * inset,
      height: (box.y1 - box.y0) * STRIDE + BLOCK - 2 * inset,
    })),
    share: comparedCells === 0 ? 0 : flaggedCells / comparedCells,
  };
}

/** Boxes within `gap` blocks of each other, joined until none are. */
function merge(boxes: Box[], gap: number): Box[] {
  const out = boxes.map((box) => ({ ...box }));
  for (let joined = true; joined; ) {
    joined = false;
    for (let i = 0; i < out.length && !joined; i++) {
      for (let j = i + 1; j < out.length; j++) {
        const a = out[i] as Box;
        const b = out[j] as Box;
        const apartX = Math.max(a.x0, b.x0) - Math.min(a.x1, b.x1);
        const apartY = Math.max(a.y0, b.y0) - Math.min(a.y1, b.y1);
        if (apartX > gap || apartY > gap) continue;
        out[i] = {
          x0: Math.min(a.x0, b.x0),
          y0: Math.min(a.y0, b.y0),
          x1: Math.max(a.x1, b.x1),
          y1: Math.max(a.y1, b.y1),
        };
        out.splice(j, 1);
        joined = true;
        break;
      }
    }
  }
  return out;
}

/** Share of a region's outstanding pixels left outside its tightened box, on each side. */
const TRIM = 0.02;

/**
 * A region's box tightened to the pixels in and around it (one block) that stand out by
 * `threshold` (`scores` per pixel of a `width`-wide grid): blocks overlap, and a block that
 * touches an edit's border by a few pixels stands out whole. The extremes are trimmed (a few
 * stray pixels do not stretch the box); with too few such pixels the box stays as it was.
 */
export function tightenBox(
  box: Region,
  scores: Float32Array,
  width: number,
  threshold: number,
): Region {
  const height = scores.length / width;
  const xs: number[] = [];
  const ys: number[] = [];
  const x0 = Math.max(0, box.x - BLOCK);
  const y0 = Math.max(0, box.y - BLOCK);
  const x1 = Math.min(width, box.x + box.width + BLOCK);
  const y1 = Math.min(height, box.y + box.height + BLOCK);
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if ((scores[y * width + x] as number) > threshold) {
        xs.push(x);
        ys.push(y);
      }
    }
  }
  if (xs.length < BLOCK * BLOCK) return box;
  xs.sort((a, b) => a - b);
  ys.sort((a, b) => a - b);
  const low = Math.floor(xs.length * TRIM);
  const high = xs.length - 1 - low;
  const left = xs[low] as number;
  const top = ys[low] as number;
  return {
    x: left,
    y: top,
    width: (xs[high] as number) - left + 1,
    height: (ys[high] as number) - top + 1,
  };
}
