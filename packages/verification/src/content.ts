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
}

export const CONTENT_NOT_COMPARED: ContentFinding = {
  state: 'not_compared',
  coverage: null,
  similarity: null,
  regions: [],
};

/**
 * The copy compared with the picture its mark was issued in. Without a reference (a job marked
 * before references were kept, or no mark), or when the comparison itself fails, the answer is
 * `not_compared`: a copy is never accused for want of a comparison.
 */
export async function compareWithIssued(
  bytes: Uint8Array,
  geometry: MarkGeometry | null,
  issued: IssuedPicture | null,
  options: { readonly maxPixels: number; readonly compare?: ContentComparer | undefined },
): Promise<ContentFinding> {
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
