import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  embedMark,
  fingerprintDistance,
  fingerprintImage,
  SAME_PICTURE_MAX_DISTANCE,
} from '../src/index.ts';
import { photo } from './c2pa-fixtures.ts';

const MAX = 50_000_000;

describe('the perceptual fingerprint', () => {
  it('stays close under what the mark survives, and far between different pictures', async () => {
    const boats = await photo('boats-0.6mp.jpg');
    const embedded = await embedMark(boats, 0x1234_5678_9abc_def0n);
    const marked = embedded.image;
    const original = await fingerprintImage(marked, MAX);
    // The embedder's own fingerprint (taken from its input, on its thread) is the reader's.
    expect(fingerprintDistance(embedded.fingerprint, original)).toBeLessThanOrEqual(4);
    expect(original).toMatch(/^[0-9a-f]{16}$/);
    const { width = 0, height = 0 } = await sharp(marked).metadata();
    const copies = [
      await sharp(marked).jpeg({ quality: 60 }).toBuffer(),
      await sharp(marked)
        .resize(Math.round(width / 2))
        .webp({ quality: 75 })
        .toBuffer(),
      await sharp(marked)
        .extract({ left: 12, top: 10, width: width - 30, height: height - 24 })
        .jpeg({ quality: 85 })
        .toBuffer(),
    ];
    for (const copy of copies) {
      expect(fingerprintDistance(original, await fingerprintImage(copy, MAX))).toBeLessThanOrEqual(
        SAME_PICTURE_MAX_DISTANCE / 2,
      );
    }
    for (const other of ['fig-0.25mp.jpg', 'clock-1mp.jpg', 'dusk-lake-0.5mp.jpg']) {
      expect(
        fingerprintDistance(original, await fingerprintImage(await photo(other), MAX)),
      ).toBeGreaterThan(SAME_PICTURE_MAX_DISTANCE);
    }
    // The mark itself barely moves it.
    expect(fingerprintDistance(original, await fingerprintImage(boats, MAX))).toBeLessThanOrEqual(
      4,
    );
  });

  it('counts differing bits', () => {
    expect(fingerprintDistance('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(fingerprintDistance('0f00000000000001', '0000000000000000')).toBe(5);
  });
});
