import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MIN_CHIP_PIXELS } from '../src/code/mark-geometry.ts';
import { TILE } from '../src/code/mark-layout.ts';
import { detectionLevel } from '../src/detect/detect.ts';
import { PilotScorer, rotatedLattices } from '../src/detect/upright-scan.ts';
import { inspectImage } from '../src/image/image-io.ts';
import { detectMark, embedMark } from '../src/invisible.ts';

const photos = join(import.meta.dirname, '../../../fixtures/photos');

/** `file` marked, turned by `degrees` and cropped to the largest upright rectangle inside. */
async function turnedCopy(file: string, payload: bigint, degrees: number): Promise<Uint8Array> {
  const marked = await embedMark(new Uint8Array(readFileSync(join(photos, file))), payload);
  const turned = await sharp(marked.image).rotate(degrees).png().toBuffer();
  const { width = 0, height = 0 } = await sharp(turned).metadata();
  const a = (degrees * Math.PI) / 180;
  const k = Math.min(
    marked.width / (marked.width * Math.cos(a) + marked.height * Math.sin(a)),
    marked.height / (marked.width * Math.sin(a) + marked.height * Math.cos(a)),
  );
  const w = Math.floor(marked.width * k) - 2;
  const h = Math.floor(marked.height * k) - 2;
  const left = Math.floor((width - w) / 2);
  const top = Math.floor((height - h) / 2);
  return new Uint8Array(
    await sharp(turned).extract({ left, top, width: w, height: h }).png().toBuffer(),
  );
}

describe('the rotation scan: a small original turned at its own scale', () => {
  it('finds the turn of a busy texture from the pilots, to a fraction of a degree', async () => {
    const copy = await turnedCopy('moss-1mp.jpg', 0xde73_2803_f497_a5d6n, 5);
    const info = await inspectImage(copy, 50_000_000, 128);
    const level = await detectionLevel(copy, info, 50_000_000);
    const period = (TILE * MIN_CHIP_PIXELS) / level.scale;
    const scorer = new PilotScorer(level.residual(1), level.width, level.height);
    const [best] = rotatedLattices(scorer, period, 1);
    const degrees = (Math.atan2(best?.b1y ?? 0, best?.b1x ?? 1) * 180) / Math.PI;
    expect(Math.abs(degrees - 5)).toBeLessThan(0.25);
    expect(Math.hypot(best?.b1x ?? 0, best?.b1y ?? 0)).toBeCloseTo(period, 6);
    // The pilots stand out there; an unmarked image's alignments stay under 6 (README.md#design).
    expect(best?.score).toBeGreaterThan(6);
  });

  it('reads the moss photo turned by 5 degrees, which the autocorrelation could not', async () => {
    // This payload's copy missed in the evaluation before the scan: none of the autocorrelation's
    // lattices was near the turned one (the moss texture's own peaks are stronger).
    const payload = 0xde73_2803_f497_a5d6n;
    const copy = await turnedCopy('moss-1mp.jpg', payload, 5);
    expect(await detectMark(copy)).toMatchObject({ found: true, payload });
  });
});
