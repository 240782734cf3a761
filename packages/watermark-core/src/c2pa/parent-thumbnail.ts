// The picture of the parent Hallmark keeps in its ingredient, so a verifier can show the edit
// history as pictures. c2pa-node's automatic thumbnails stay off (BUILDER_SETTINGS): they are
// made at a size and cost a signing service does not need, and of every claim, not just parents.
import { boundedJpeg } from '../image/bounded-jpeg.ts';
import { DEFAULT_MAX_PIXELS } from '../image/image-io.ts';
import { MAX_THUMBNAIL_BYTES } from './ingredient-thumbnails.ts';

/** Longest side of a parent's thumbnail, in pixels (never larger than the parent). */
export const PARENT_THUMBNAIL_SIDE = 256;
/** Its name among the builder's resources; c2pa-node replaces it with the stored box's URI. */
export const PARENT_THUMBNAIL_IDENTIFIER = 'parent-thumbnail.jpg';
/** Well under what a reader takes, so the thumbnail survives any reader's bound. */
const PARENT_THUMBNAIL_MAX_BYTES = MAX_THUMBNAIL_BYTES / 2;

/**
 * A JPEG of the parent fitting PARENT_THUMBNAIL_SIDE; undefined when sharp cannot decode the
 * parent (a HEVC-coded HEIC): the history then shows the step without a picture, and signing
 * goes on.
 */
export async function parentThumbnail(parent: Uint8Array): Promise<Uint8Array | undefined> {
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
