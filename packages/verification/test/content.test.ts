import type { ContentComparison, MarkGeometry } from '@hallmark/watermark-core';
import { describe, expect, it } from 'vitest';
import { compareWithIssued, type IssuedPicture } from '../src/content.ts';

const OUTPUT_SHA256 = 'a'.repeat(64);
const geometry: MarkGeometry = {
  rotation: 0,
  mirrored: false,
  tilePixels: 256,
  tilePixelsY: 256,
  gridOriginX: 0,
  gridOriginY: 0,
};
const issued: IssuedPicture = {
  contentReference: new Uint8Array([1, 2, 3]),
  outputWidth: 1200,
  outputHeight: 800,
  outputSha256: OUTPUT_SHA256,
};
const bytes = new Uint8Array([9, 9, 9]);

describe('compareWithIssued', () => {
  it('answers the issued output itself (the same SHA-256) as all shown, unchanged, uncompared', async () => {
    const compare = async (): Promise<ContentComparison> => {
      throw new Error('a byte-identical output is not compared');
    };
    const finding = await compareWithIssued(bytes, OUTPUT_SHA256, geometry, issued, {
      maxPixels: 1e8,
      compare,
    });
    expect(finding).toEqual({ state: 'same', coverage: 1, similarity: 1, regions: [] });
  });

  it('compares any other bytes, and answers not_compared when the comparison fails', async () => {
    let calls = 0;
    const edited: ContentComparison = {
      state: 'edited',
      coverage: 0.9,
      similarity: 0.7,
      regions: [{ x: 1, y: 2, width: 3, height: 4 }],
    };
    const compare = async (): Promise<ContentComparison> => {
      calls++;
      return edited;
    };
    const other = 'b'.repeat(64);
    const options = { maxPixels: 1e8, compare };
    expect(await compareWithIssued(bytes, other, geometry, issued, options)).toMatchObject({
      state: 'edited',
      regions: [{ x: 1, y: 2, width: 3, height: 4 }],
    });
    expect(calls).toBe(1);
    const failing = async (): Promise<ContentComparison> => {
      throw new Error('decoder failed');
    };
    const finding = await compareWithIssued(bytes, other, geometry, issued, {
      maxPixels: 1e8,
      compare: failing,
    });
    expect(finding.state).toBe('not_compared');
  });
});
