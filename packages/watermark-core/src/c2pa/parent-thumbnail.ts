// The picture of the parent Hallmark keeps in its ingredient, so a verifier can show the edit
// history as pictures. c2pa-node's automatic thumbnails stay off (BUILDER_SETTINGS): they are
// made at a size and cost a signing service does not need, and of every claim, not just parents.
import { readFile, stat } from 'node:fs/promises';
import { IMAGE_FORMATS } from '@hallmark/schemas';
import { boundedJpeg } from '../image/bounded-jpeg.ts';
import { DEFAULT_MAX_PIXELS } from '../image/image-io.ts';
import type { C2paFormat } from './formats.ts';
import { MAX_THUMBNAIL_BYTES } from './ingredient-thumbnails.ts';

/** Longest side of a parent's thumbnail, in pixels (never larger than the parent). */
export const PARENT_THUMBNAIL_SIDE = 256;
/** Its name among the builder's resources; c2pa-node replaces it with the stored box's URI. */
export const PARENT_THUMBNAIL_IDENTIFIER = 'parent-thumbnail.jpg';
/** Well under what a reader takes, so the thumbnail survives any reader's bound. */
const PARENT_THUMBNAIL_MAX_BYTES = MAX_THUMBNAIL_BYTES / 2;
/**
 * A raster file larger than this gets no thumbnail when signed from disk: reading it whole to draw
 * one would undo the point of signing file to file. Photos within DEFAULT_MAX_PIXELS are far
 * smaller.
 */
const MAX_THUMBNAIL_SOURCE_BYTES = 256 * 1024 * 1024;

/**
 * Only raster images are drawn: sharp would render an SVG (a document that may fetch or be
 * crafted), and it reads no video, audio, DNG or JPEG XL. A HEVC-coded HEIC is tried and fails.
 */
function drawable(format: C2paFormat): boolean {
  return (IMAGE_FORMATS as readonly string[]).includes(format);
}

/**
 * A JPEG of the parent fitting PARENT_THUMBNAIL_SIDE; undefined when it is not a raster image or
 * sharp cannot decode it (a HEVC-coded HEIC): the history then shows the step without a picture,
 * and signing goes on.
 */
export async function parentThumbnail(
  parent: Uint8Array,
  format: C2paFormat,
): Promise<Uint8Array | undefined> {
  if (!drawable(format)) return undefined;
  try {
    return await boundedJpeg(parent, {
      side: PARENT_THUMBNAIL_SIDE,
      maxBytes: PARENT_THUMBNAIL_MAX_BYTES,
      maxPixels: DEFAULT_MAX_PIXELS,
    });
  } catch {
    return undefined;
  }
}

/** parentThumbnail of a file, read only when it is a raster image of a photo's size. */
export async function parentThumbnailOfFile(
  path: string,
  format: C2paFormat,
): Promise<Uint8Array | undefined> {
  if (!drawable(format) || (await stat(path)).size > MAX_THUMBNAIL_SOURCE_BYTES) return undefined;
  return parentThumbnail(await readFile(path), format);
}
