// The image mark's raw-pixel entry for video: the same chip grid, tile pattern, perceptual mask
// and interpolated field as embedMark (src/embed), added to a frame's Y plane in place. Nothing
// is decoded or encoded here: ffmpeg hands over yuv420p (or yuv420p10le) frames and takes them
// back, so chroma is untouched, as the image mark leaves hue alone.

import { encodeFrame } from '../code/frame-code.ts';
import { type MarkGrid, markGrid } from '../code/mark-geometry.ts';
import { TILE, tilePattern } from '../code/mark-layout.ts';
import { assertPayload, type MarkPayload } from '../code/payload.ts';
import { addMarkField, TEN_BIT } from '../embed/mark-field.ts';
import {
  CONTRAST_SAMPLES_PER_CHIP,
  chipContrast,
  DEFAULT_STRENGTH,
  markRms,
  perceptualStrength,
  type StrengthSettings,
} from '../embed/perceptual-strength.ts';

/**
 * Limited-range Y spans 16-235 for 0-255 of RGB: the image mark's change of d levels in R, G and
 * B is a change of d * 219/255 in Y, and Y's contrast is 219/255 of the RGB luma's.
 */
const Y_PER_RGB_LEVEL = 219 / 255;

/**
 * The video's strength: the image mark's mask with the flat-area amplitude that larger images
 * start at (1.8 levels, quality-floor.ts), since every copy of a video is lossy-encoded at least
 * once and flat areas are where an encoder drops a small change first.
 */
export const VIDEO_STRENGTH: StrengthSettings = { ...DEFAULT_STRENGTH, flat: 1.8 };

/** A frame's Y plane: 8-bit samples, or 10-bit ones in 16-bit words (yuv420p10le). */
export type LumaPlane = Uint8Array | Uint16Array;

/**
 * The Y plane at the start of a raw frame, in place; 10-bit samples are little-endian 16-bit
 * words (the platforms Node runs on are little-endian). A frame's buffer starts aligned, as
 * Node's pool aligns the small ones.
 */
export function lumaPlane(
  frame: Uint8Array,
  samples: number,
  pixelFormat: 'yuv420p' | 'yuv420p10le',
): LumaPlane {
  if (pixelFormat === 'yuv420p') return frame.subarray(0, samples);
  return new Uint16Array(frame.buffer, frame.byteOffset, samples);
}

/** Marks frames of one size with one payload; the pattern is laid over the grid once. */
export class LumaPlaneMarker {
  readonly width: number;
  readonly height: number;
  readonly grid: MarkGrid;
  /** The tile's +-1 chips repeated over the whole grid: only the amplitudes change per frame. */
  private readonly signs: Float32Array;
  private readonly settings: StrengthSettings;
  private readonly sampleWidth: number;
  private readonly sampleHeight: number;

  constructor(
    width: number,
    height: number,
    payload: MarkPayload,
    settings: StrengthSettings = VIDEO_STRENGTH,
  ) {
    assertPayload(payload);
    this.width = width;
    this.height = height;
    this.settings = settings;
    this.grid = markGrid(width, height);
    const pattern = tilePattern(encodeFrame(payload));
    const { columns, rows } = this.grid;
    this.signs = new Float32Array(columns * rows);
    for (let j = 0; j < rows; j++) {
      for (let i = 0; i < columns; i++) {
        this.signs[j * columns + i] = pattern[(j % TILE) * TILE + (i % TILE)] as number;
      }
    }
    this.sampleWidth = columns * CONTRAST_SAMPLES_PER_CHIP;
    this.sampleHeight = rows * CONTRAST_SAMPLES_PER_CHIP;
  }

  /**
   * The chip amplitudes (RGB levels) the frame's content allows, from its Y plane: the image
   * mark's perceptual mask, measured on the plane sampled at three points per chip side.
   */
  strength(plane: LumaPlane): Float32Array {
    const luma = this.sampleLuma(plane);
    return perceptualStrength(chipContrast(luma, this.grid), this.settings);
  }

  /**
   * Adds the mark with these chip amplitudes to the Y plane (the first width x height samples
   * of a yuv420p or yuv420p10le frame), in place; a 10-bit plane gets the same change in
   * 8-bit terms. Returns the mark's mean squared change in Y (8-bit levels) as the amplitudes
   * predict it (bilinear interpolation keeps 4/9 of each chip's energy), before clipping.
   */
  mark(plane: LumaPlane, strength: Float32Array): number {
    const field = new Float32Array(this.signs.length);
    for (let k = 0; k < field.length; k++) {
      field[k] = (strength[k] as number) * (this.signs[k] as number) * Y_PER_RGB_LEVEL;
    }
    const pixels = {
      data: plane.subarray(0, this.width * this.height),
      width: this.width,
      height: this.height,
      channels: 1,
      hasAlpha: false,
    };
    addMarkField(pixels, this.grid, field, { wide: TEN_BIT });
    return (markRms(strength) * Y_PER_RGB_LEVEL) ** 2;
  }

  /**
   * The plane at the contrast measure's resolution, each sample the mean of the 2x2 Y pixels
   * nearest its centre, in RGB levels: a cheap stand-in for the linear resize embedMark asks
   * libvips for, which the mask only needs roughly.
   */
  private sampleLuma(plane: LumaPlane): Float32Array {
    const { width, height, sampleWidth, sampleHeight } = this;
    const out = new Float32Array(sampleWidth * sampleHeight);
    const xs = new Int32Array(sampleWidth);
    const sx = width / sampleWidth;
    for (let x = 0; x < sampleWidth; x++) {
      xs[x] = Math.min(width - 2, Math.max(0, Math.floor((x + 0.5) * sx - 0.5)));
    }
    const sy = height / sampleHeight;
    const depth = plane instanceof Uint16Array ? TEN_BIT.scale : 1;
    const scale = 1 / (4 * Y_PER_RGB_LEVEL * depth);
    for (let y = 0; y < sampleHeight; y++) {
      const top = Math.min(height - 2, Math.max(0, Math.floor((y + 0.5) * sy - 0.5))) * width;
      const bottom = top + width;
      const row = y * sampleWidth;
      for (let x = 0; x < sampleWidth; x++) {
        const p = xs[x] as number;
        out[row + x] =
          ((plane[top + p] as number) +
            (plane[top + p + 1] as number) +
            (plane[bottom + p] as number) +
            (plane[bottom + p + 1] as number)) *
          scale;
      }
    }
    return out;
  }
}
