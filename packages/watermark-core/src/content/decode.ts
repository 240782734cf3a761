// The two pictures of a comparison decoded at the size it works at: the reference shrunk so that
// the part the copy shows holds about WORK_PIXELS, the copy at about the reference's pixel size.
// Both headers are read first, so both decodes can run at once on libvips' threads, and the
// reference (small, decoded first) is prepared while the copy is still decoding.
import sharp from 'sharp';
import type { MarkGeometry } from '../detect/detect.ts';
import { Memo } from './memo.ts';
import type { Size } from './placement.ts';
import { markScale } from './placement.ts';
import { decodePlanes, greyVersions, planesOfRgb } from './planes.ts';
import { REFERENCE_SIDE } from './reference.ts';
import type { Reference } from './residuals.ts';
import type { DecodedCopy, Frame } from './warp.ts';

/** What a comparison is given besides the copy. */
export interface ContentInput {
  /** The reference kept with the job (makeContentReference). */
  readonly reference: Uint8Array;
  /** The issued output's size. */
  readonly original: Size;
  /** The mark's geometry in the copy. */
  readonly geometry: MarkGeometry;
  readonly maxPixels: number;
}

/** Pixels of the reference compared at most, where the copy shows it (see workScale). */
const WORK_PIXELS = 64_000;

export interface DecodedPair<Prepared> {
  readonly copy: DecodedCopy;
  readonly copySize: Size;
  readonly frame: Frame;
  /** What `prepare` made of the reference, in `frame`. */
  readonly prepared: Prepared;
}

/**
 * Decodes the copy and the reference for a comparison; `prepare` runs on the decoded reference
 * while the copy is still being decoded.
 */
export async function decodePair<Prepared>(
  copyImage: Uint8Array,
  input: ContentInput,
  prepare: (reference: Reference, frame: Frame) => Prepared,
): Promise<DecodedPair<Prepared>> {
  const [copyMeta, referenceMeta] = await Promise.all([
    sharp(copyImage, { limitInputPixels: input.maxPixels, failOn: 'none' }).metadata(),
    sharp(input.reference).metadata(),
  ]);
  const copySize = { width: copyMeta.width ?? 0, height: copyMeta.height ?? 0 };
  // The copy's size against the original's, from the mark's tile.
  const scale = markScale(input.geometry, input.original);
  const shrink = workScale(input, copySize, scale);
  const referenceSize =
    shrink < 1
      ? {
          width: Math.max(8, Math.round((referenceMeta.width ?? 1) * shrink)),
          height: Math.max(8, Math.round((referenceMeta.height ?? 1) * shrink)),
        }
      : null;
  const frameSize = referenceSize ?? {
    width: referenceMeta.width ?? 0,
    height: referenceMeta.height ?? 0,
  };
  const frame: Frame = {
    width: frameSize.width,
    height: frameSize.height,
    scaleX: frameSize.width / input.original.width,
    scaleY: frameSize.height / input.original.height,
  };
  // Decoded at about the reference's pixel size (never enlarged): finer would only be averaged.
  const density = Math.min(1, frame.scaleX / scale);
  const decodedWidth = Math.max(8, Math.round(copySize.width * density));
  const decodedHeight = Math.max(8, Math.round(copySize.height * density));
  const [prepared, planes] = await Promise.all([
    decodeReference(input.reference, referenceSize).then((reference) => {
      if (reference.width !== frame.width || reference.height !== frame.height) {
        throw new Error('the reference decoded to another size than its header says');
      }
      return prepare(reference, frame);
    }),
    decodePlanes(copyImage, input.maxPixels, decodedWidth, decodedHeight),
  ]);
  const copy = { planes, density: decodedWidth / copySize.width, memo: new Memo() };
  return { copy, copySize, frame, prepared };
}

/**
 * The share of the reference's size to compare at: the part the copy shows (its size against the
 * original's, by the mark's scale) holds about WORK_PIXELS. A copy of the whole picture is
 * compared at about 300 x 200, a small crop at the reference's full size.
 */
function workScale(input: ContentInput, copy: Size, scale: number): number {
  const shown = Math.min(
    1,
    (copy.width * copy.height) / (scale * scale * input.original.width * input.original.height),
  );
  const referencePixels = Math.min(
    REFERENCE_SIDE * REFERENCE_SIDE,
    input.original.width * input.original.height,
  );
  return Math.min(1, Math.sqrt(WORK_PIXELS / Math.max(1, shown * referencePixels)));
}

/** The reference's planes, resized to `size` when given (else at its own size). */
async function decodeReference(bytes: Uint8Array, size: Size | null): Promise<Reference> {
  let image = sharp(bytes);
  if (size !== null) image = image.resize(size.width, size.height, { fit: 'fill' });
  const { data, info } = await image
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const memo = new Memo();
  return {
    ...planesOfRgb(data, info.width, info.height, info.channels),
    greys: () =>
      memo.get('greys', () => greyVersions(data, info.width, info.height, info.channels)),
    memo,
  };
}
