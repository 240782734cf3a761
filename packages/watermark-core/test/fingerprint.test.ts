import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  embedMark,
  fingerprintDistance,
  fingerprintImage,
  markTilePixels,
  readMarkAndFingerprint,
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

describe('the mark geometry', () => {
  it('tells the rotation, mirroring, tile size and grid origin of a copy, and the fingerprint follows it upright', async () => {
    const embedded = await embedMark(await photo('boats-0.6mp.jpg'), 0x0fedcba987654321n);
    const marked = embedded.image;
    const { width = 0, height = 0 } = await sharp(marked).metadata();
    const tile = markTilePixels(width, height);
    const read = async (bytes: Buffer) => {
      const result = await readMarkAndFingerprint(bytes, MAX);
      if (result.detection?.geometry === undefined) throw new Error('no mark found');
      return { geometry: result.detection.geometry, fingerprint: result.fingerprint };
    };
    const half = await read(
      await sharp(marked)
        .resize(Math.round(width / 2))
        .jpeg()
        .toBuffer(),
    );
    expect(half.geometry.tilePixels / tile).toBeCloseTo(0.5, 1);
    const cropped = await read(
      await sharp(marked)
        .extract({ left: 40, top: 30, width: width - 60, height: height - 50 })
        .jpeg()
        .toBuffer(),
    );
    // The original grid's corner, 40 x 30 pixels off the copy's origin, modulo one tile.
    expect(Math.abs(cropped.geometry.gridOriginX - (tile - 40))).toBeLessThan(4);
    expect(Math.abs(cropped.geometry.gridOriginY - (tile - 30))).toBeLessThan(4);
    const turned = await read(await sharp(marked).rotate(90).flop().jpeg().toBuffer());
    expect(turned.geometry.mirrored).toBe(true);
    expect(Math.abs(Math.abs(turned.geometry.rotation) - 90)).toBeLessThan(1);
    expect(fingerprintDistance(turned.fingerprint, embedded.fingerprint)).toBeLessThanOrEqual(8);
    const tilted = await read(
      await sharp(marked).rotate(5, { background: '#808080' }).jpeg().toBuffer(),
    );
    expect(tilted.geometry.rotation).toBeCloseTo(5, 0);
    expect(tilted.geometry.mirrored).toBe(false);
  });
});
