// detectMark: where the detector looks. The whole image at the detection size first (a copy that
// kept its mark is found there, at the cost of one analysis; a crop kept at its own scale is
// scanned for there too, upright-scan.ts); then, when nothing was found, the
// places a mark survives that the whole view misses: the image at half that resolution (a small
// crop of a large photo, whose chips the detection size leaves too large), quarter windows (a
// perspective view is nearly affine within each) and windows at twice the resolution (a copy
// pasted into a larger picture, whose chips the detection size leaves too small).
//
// False detections: every window decodes at most ATTEMPTS_PER_WINDOW alignments, each in
// READOUTS readouts of its chips by a list decoder checking at most LIST_SIZE candidates against
// the 48-bit check value, the search looks at MAX_WINDOWS windows at most, and an image spends at
// most DEEP_DECODES_PER_IMAGE decodes of DEEP_LIST_SIZE candidates: 16 * 8 * 2 * 32 + 4 * 1024 =
// 12,288 candidate frames, so an unmarked image is reported as marked with probability at most
// 12,288 * 2^-48 = 4.4e-11.

import { detectionSize } from '../code/mark-geometry.ts';
import {
  DEFAULT_MAX_PIXELS,
  decodeLuma,
  type ImageInfo,
  inspectImage,
  MIN_DETECT_SIDE,
} from '../image/image-io.ts';
import { AnalysisLevel, type Window } from './analysis-level.ts';
import { newWindowTrace, type SearchTrace } from './search-trace.ts';
import { DeepDecodes, type Detection, detectInWindow } from './window-detection.ts';

export { READOUTS } from './chip-equaliser.ts';
export type { Detection, MarkGeometry } from './window-detection.ts';
export {
  ATTEMPTS_PER_WINDOW,
  DEEP_DECODES_PER_IMAGE,
  DEEP_LIST_SIZE,
} from './window-detection.ts';

/** Windows looked at per image at most: 1 whole, 1 halved, 5 quarters, 9 at double resolution. */
export const MAX_WINDOWS = 16;
/** Smallest window side worth analysing (its level's pixels): over two of the shortest periods. */
const MIN_WINDOW_SIDE = 96;

export interface DetectOptions {
  /** Largest accepted image (width x height). Default 50 MP. */
  readonly maxPixels?: number;
}

const NOT_FOUND: Detection = { found: false, payload: null, confidence: 0 };

/** Looks for a mark in an encoded image; needs no original. */
export async function detectMark(
  image: Uint8Array,
  options: DetectOptions = {},
): Promise<Detection> {
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;
  const info = await inspectImage(image, maxPixels, MIN_DETECT_SIDE);
  return searchMark(image, info, maxPixels, await detectionLevel(image, info, maxPixels));
}

/**
 * detectMark, with what its search looked at (search-trace.ts): for the tests, the bench and the
 * evaluation's calibration.
 */
export async function traceDetection(
  image: Uint8Array,
  options: DetectOptions = {},
): Promise<{ readonly detection: Detection; readonly trace: SearchTrace }> {
  const started = performance.now();
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;
  const info = await inspectImage(image, maxPixels, MIN_DETECT_SIDE);
  const level = await detectionLevel(image, info, maxPixels);
  const trace: SearchTrace = { windows: [], elapsed: 0 };
  const detection = await searchMark(image, info, maxPixels, level, trace);
  trace.elapsed = performance.now() - started;
  return { detection, trace };
}

/** The image at the detection size (about 512x512, never enlarged): the first level searched. */
export async function detectionLevel(
  image: Uint8Array,
  file: { readonly width: number; readonly height: number },
  maxPixels: number,
): Promise<AnalysisLevel> {
  const size = detectionSize(file.width, file.height);
  const luma = await decodeLuma(image, maxPixels, size.width, size.height);
  return new AnalysisLevel(luma, size.width, size.height, fileSize(file));
}

/** Searches the windows in order (see the top of this file) and returns the first mark found. */
export async function searchMark(
  image: Uint8Array,
  info: ImageInfo,
  maxPixels: number,
  level: AnalysisLevel,
  trace: SearchTrace = { windows: [], elapsed: 0 },
): Promise<Detection> {
  const deep = new DeepDecodes();
  const look = (on: AnalysisLevel, window: Window, name: string, scanUpright = false) => {
    const windowTrace = newWindowTrace(name);
    trace.windows.push(windowTrace);
    const started = performance.now();
    const found = detectInWindow(on, window, deep, scanUpright, windowTrace);
    windowTrace.elapsed = performance.now() - started;
    return found;
  };
  const inWindows = (on: AnalysisLevel, windows: readonly Window[], name: string) => {
    for (const [i, window] of windows.entries()) {
      const found = look(on, window, `${name} ${i}`);
      if (found !== null) return found;
    }
    return null;
  };
  // The whole image also scans for a small crop that was not rescaled (upright-scan.ts).
  const whole = look(level, level.whole, 'whole', true);
  if (whole !== null) return whole;
  const halved = level.halved();
  const found =
    inWindows(halved, [halved.whole].filter(fits), 'halved') ??
    inWindows(level, grid(level, 2).filter(fits), 'quarter');
  if (found !== null) return found;
  // Twice the detection resolution, when the file has it.
  if (level.scale < 2) return NOT_FOUND;
  const width = level.width * 2;
  const height = level.height * 2;
  const luma = await decodeLuma(image, maxPixels, width, height);
  const finer = new AnalysisLevel(luma, width, height, fileSize(info));
  return inWindows(finer, grid(finer, 3), 'finer') ?? NOT_FOUND;
}

const fileSize = (file: { readonly width: number; readonly height: number }) => ({
  width: file.width,
  height: file.height,
});

function fits(window: Window): boolean {
  return Math.min(window.width, window.height) >= MIN_WINDOW_SIDE;
}

/**
 * Windows of half the level's width and height: with `steps` = 2, its four quarters and the centre
 * one; with 3, a 3x3 grid of them a quarter apart, so any region of a quarter of the level lies
 * mostly within one of them.
 */
function grid(level: AnalysisLevel, steps: 2 | 3): Window[] {
  const width = level.width >> 1;
  const height = level.height >> 1;
  const at = (i: number, free: number) => Math.round((i * free) / (steps === 2 ? 1 : 2));
  const windows: Window[] = [];
  for (let j = 0; j < steps; j++) {
    for (let i = 0; i < steps; i++) {
      windows.push({
        x: at(i, level.width - width),
        y: at(j, level.height - height),
        width,
        height,
      });
    }
  }
  if (steps === 2) {
    windows.push({ x: (level.width - width) >> 1, y: (level.height - height) >> 1, width, height });
  }
  return windows;
}
