// One scale at which the detector analyses an image: its luma, how many file pixels one of its
// pixels stands for, and its whitened residuals (computed once per smoothing radius and shared by
// every window the search looks at on this level).
import { halve, highPass, localRms } from '../image/filters.ts';

/** A rectangle of a level, in its pixels. */
export interface Window {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export class AnalysisLevel {
  private readonly residuals = new Map<number, Float32Array>();

  readonly luma: Float32Array;
  readonly width: number;
  readonly height: number;
  /** File pixels per pixel of this level, horizontally. */
  readonly scale: number;
  /** File pixels per pixel of this level, vertically (rounding makes it differ a little). */
  readonly scaleY: number;
  /** The file's own size, in its pixels. */
  readonly file: { readonly width: number; readonly height: number };

  constructor(
    luma: Float32Array,
    width: number,
    height: number,
    file: { readonly width: number; readonly height: number },
    scales: { readonly x: number; readonly y: number } = {
      x: file.width / width,
      y: file.height / height,
    },
  ) {
    this.luma = luma;
    this.width = width;
    this.height = height;
    this.file = file;
    this.scale = scales.x;
    this.scaleY = scales.y;
  }

  get whole(): Window {
    return { x: 0, y: 0, width: this.width, height: this.height };
  }

  /** The whitened residual of `window` for smoothing `radius` (see whitenedResidual). */
  residual(radius: number, window: Window = this.whole): Float32Array {
    let residual = this.residuals.get(radius);
    if (residual === undefined) {
      residual = whitenedResidual(this.luma, this.width, this.height, radius);
      this.residuals.set(radius, residual);
    }
    if (window.width === this.width && window.height === this.height) return residual;
    const out = new Float32Array(window.width * window.height);
    for (let y = 0; y < window.height; y++) {
      const from = (window.y + y) * this.width + window.x;
      out.set(residual.subarray(from, from + window.width), y * window.width);
    }
    return out;
  }

  /** This level at half the resolution (2x2 means): chips twice as small, the tile twice as short. */
  halved(): AnalysisLevel {
    const luma = halve(this.luma, this.width, this.height);
    return new AnalysisLevel(luma, this.width >> 1, this.height >> 1, this.file, {
      x: this.scale * 2,
      y: this.scaleY * 2,
    });
  }
}

/**
 * The image's fine structure (luma minus its local mean over a box of `radius`, applied twice)
 * divided by its local strength and clipped: busy areas and edges, where the host image
 * dominates, count no more than flat ones, where the mark is easiest to see.
 */
export function whitenedResidual(
  luma: Float32Array,
  width: number,
  height: number,
  radius: number,
): Float32Array {
  // One scratch image serves every box pass (this runs per level and radius, on up to 0.7 MP).
  const scratch = new Float32Array(luma.length);
  const residual = highPass(luma, width, height, radius, scratch);
  const strength = localRms(residual, width, height, 2, scratch);
  for (let i = 0; i < residual.length; i++) {
    const v = (residual[i] as number) / ((strength[i] as number) + 0.5);
    residual[i] = v > 1.5 ? 1.5 : Math.max(v, -1.5);
  }
  return residual;
}
