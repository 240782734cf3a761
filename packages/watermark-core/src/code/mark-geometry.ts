// How the mark is laid over an image. The mark lives on a grid of "chips" whose size follows the
// image (about 256x256 chips whatever the resolution, never smaller than 4.4 pixels), so a resized
// copy carries the same grid at a new scale and the detector only has to recover one similarity
// transform. The tile of 32x32 chips repeats over the grid.

/** Chips per image (before the 2-pixel floor kicks in for small images). */
export const GRID_AREA = 256 * 256;
/**
 * Smallest chip side in image pixels. Finer chips do not survive strong JPEG or WebP compression
 * of small images, and cost SSIM in flat areas. Not a multiple of 8/32 = 0.25, so the tile's
 * period never lines up with JPEG's 8x8 blocks.
 */
export const MIN_CHIP_PIXELS = 4.4;
/** The detector resamples every image to about this many pixels (2 pixels per chip or more). */
export const DETECT_AREA = 512 * 512;
/**
 * The detector never enlarges an image: a small original has chips of 4.4 pixels, which then keep
 * that size in any crop of it.
 */
export const MAX_DETECT_UPSCALE = 1;

export interface MarkGrid {
  readonly columns: number;
  readonly rows: number;
  /** Side of one chip in image pixels, along x and along y. */
  readonly chipWidth: number;
  readonly chipHeight: number;
}

/**
 * The chip grid of an image of `width` x `height` pixels. A large image's grid spans it exactly
 * (a whole number of chips, each a little wider or taller than the other way); a small image's
 * chips are exactly MIN_CHIP_PIXELS square, the last column and row cut by the image's edge, so
 * that any copy at the original's scale, cropped or not, has the one lattice the detector tries
 * first (with a whole number of chips, 4.38-4.42 pixels, the grid drifted by up to half a chip
 * from that lattice across the image).
 */
export function markGrid(width: number, height: number): MarkGrid {
  const fit = Math.sqrt(GRID_AREA / (width * height));
  if (fit >= 1 / MIN_CHIP_PIXELS) {
    return {
      columns: Math.ceil(width / MIN_CHIP_PIXELS),
      rows: Math.ceil(height / MIN_CHIP_PIXELS),
      chipWidth: MIN_CHIP_PIXELS,
      chipHeight: MIN_CHIP_PIXELS,
    };
  }
  const columns = Math.max(1, Math.round(width * fit));
  const rows = Math.max(1, Math.round(height * fit));
  return { columns, rows, chipWidth: width / columns, chipHeight: height / rows };
}

/** Size at which the detector analyses an image of `width` x `height` pixels. */
export function detectionSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(MAX_DETECT_UPSCALE, Math.sqrt(DETECT_AREA / (width * height)));
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/** Side of one tile of the mark (32 chips), in pixels, as embedded in an image of this size. */
export function markTilePixels(width: number, height: number): number {
  return 32 * markGrid(width, height).chipWidth;
}

/** The original's x and y axes in a copy turned by `rotation` degrees clockwise, maybe mirrored. */
export function originalAxes(
  rotation: number,
  mirrored: boolean,
): { readonly x: { x: number; y: number }; readonly y: { x: number; y: number } } {
  const radians = (rotation * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  return { x: { x: cos, y: sin }, y: mirrored ? { x: sin, y: -cos } : { x: -sin, y: cos } };
}

/**
 * A point of the copy moved by whole tiles of the mark (along the original's axes, as the copy
 * shows them) into the tile that begins at the copy's origin. Wrapping x and y separately is the
 * same only for an upright copy: a rotated one would land off the lattice.
 */
export function wrapToLattice(
  x: number,
  y: number,
  shape: {
    readonly rotation: number;
    readonly mirrored: boolean;
    readonly tilePixels: number;
    readonly tilePixelsY: number;
  },
): { readonly x: number; readonly y: number } {
  const axes = originalAxes(shape.rotation, shape.mirrored);
  const along = Math.floor((x * axes.x.x + y * axes.x.y) / shape.tilePixels);
  const across = Math.floor((x * axes.y.x + y * axes.y.y) / shape.tilePixelsY);
  return {
    x: x - along * shape.tilePixels * axes.x.x - across * shape.tilePixelsY * axes.y.x,
    y: y - along * shape.tilePixels * axes.x.y - across * shape.tilePixelsY * axes.y.y,
  };
}
