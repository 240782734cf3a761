import type { ContentFinding } from '@hallmark/schemas';
import {
  type ContentComparison,
  type ContentInput,
  compareContent,
  type MarkGeometry,
} from '@hallmark/watermark-core';

/** Compares a copy with a job's content reference (compareContent's contract). */
export type ContentComparer = (
  bytes: Uint8Array,
  input: ContentInput,
) => Promise<ContentComparison>;

/** What the mark's job keeps for the comparison; any part missing: no comparison. */
export interface IssuedPicture {
  readonly contentReference: Uint8Array | null;
  readonly outputWidth: number | null;
  readonly outputHeight: number | null;
  /** SHA-256 of the issued output (hex): a copy with the same digest is that output. */
  readonly outputSha256: string | null;
}

export const CONTENT_NOT_COMPARED: ContentFinding = {
  state: 'not_compared',
  coverage: null,
  similarity: null,
  regions: [],
};

/** The issued output itself, byte for byte: all of it shown, nothing changed. */
export const CONTENT_IDENTICAL: ContentFinding = {
  state: 'same',
  coverage: 1,
  similarity: 1,
  regions: [],
};

/**
 * The copy compared with the picture its mark was issued in. The issued output itself (the same
 * SHA-256, the most common file verified) is `same` without a comparison: its pixels are the
 * issued ones. Without a reference (a job marked before references were kept, or no mark), or
 * when the comparison itself fails, the answer is `not_compared`: a copy is never accused for
 * want of a comparison.
 */
export async function compareWithIssued(
  bytes: Uint8Array,
  sha256: string,
  geometry: MarkGeometry | null,
  issued: IssuedPicture | null,
  options: { readonly maxPixels: number; readonly compare?: ContentComparer | undefined },
): Promise<ContentFinding> {
  if (issued !== null && issued.outputSha256 === sha256) return CONTENT_IDENTICAL;
  if (
    geometry === null ||
    issued === null ||
    issued.contentReference === null ||
    issued.outputWidth === null ||
    issued.outputHeight === null
  ) {
    return CONTENT_NOT_COMPARED;
  }
  const input: ContentInput = {
    reference: issued.contentReference,
    original: { width: issued.outputWidth, height: issued.outputHeight },
    geometry,
    maxPixels: options.maxPixels,
  };
  let comparison: ContentComparison;
  try {
    comparison = await (options.compare ?? compareContent)(bytes, input);
  } catch {
    return CONTENT_NOT_COMPARED;
  }
  return {
    state: comparison.state,
    coverage: comparison.coverage,
    similarity: comparison.similarity,
    regions: comparison.regions.map((region) => ({ ...region })),
  };
}
