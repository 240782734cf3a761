import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { compareContent, makeContentReference } from '../src/content/index.ts';
import { detectMark, embedMark, payloadFromHex } from '../src/invisible.ts';

const MAX_PIXELS = 50_000_000;
const photos = join(import.meta.dirname, '../../../fixtures/photos');

interface Marked {
  readonly original: Uint8Array;
  readonly image: Uint8Array;
  readonly reference: Uint8Array;
  readonly size: { width: number; height: number };
}

async function mark(file: string, payload: string): Promise<Marked> {
  const original = new Uint8Array(await readFile(join(photos, file)));
  const result = await embedMark(original, payloadFromHex(payload));
  return {
    original,
    image: result.image,
    reference: await makeContentReference(result.image, MAX_PIXELS),
    size: { width: result.width, height: result.height },
  };
}

const rgb = async (image: Uint8Array | Buffer, resize?: { width: number; height: number }) => {
  let s = sharp(image);
  if (resize !== undefined) s = s.resize(resize.width, resize.height, { fit: 'fill' });
  const { data, info } = await s.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
};

/**
 * A forger's second shot: the original framed `zoom` tighter from (left, top), re-exposed, with
 * the mark of the issued output (marked minus original) added to it.
 */
async function secondShot(
  of: Marked,
  frame: { zoom: number; left: number; top: number; exposure: number },
): Promise<Uint8Array> {
  const { width, height } = of.size;
  const marked = await rgb(of.image);
  const original = await rgb(of.original, of.size);
  const w = Math.round(width / frame.zoom);
  const h = Math.round(height / frame.zoom);
  const framed = await sharp(original.data, { raw: { width, height, channels: 3 } })
    .extract({ left: frame.left, top: frame.top, width: w, height: h })
    .png()
    .toBuffer();
  const resized = await sharp(framed).resize(width, height, { fit: 'fill' }).png().toBuffer();
  const host = await rgb(await sharp(resized).linear(frame.exposure, 0).png().toBuffer());
  const out = Buffer.alloc(host.data.length);
  for (let i = 0; i < out.length; i++) {
    const value =
      (host.data[i] as number) + (marked.data[i] as number) - (original.data[i] as number);
    out[i] = Math.max(0, Math.min(255, value));
  }
  return new Uint8Array(
    await sharp(out, { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer(),
  );
}

async function compare(of: Marked, copy: Uint8Array) {
  const detection = await detectMark(copy, { maxPixels: MAX_PIXELS });
  expect(detection.geometry, 'the mark is read').toBeDefined();
  return compareContent(copy, {
    reference: of.reference,
    original: of.size,
    geometry: detection.geometry as NonNullable<typeof detection.geometry>,
    maxPixels: MAX_PIXELS,
  });
}

// A mark moved onto a second shot of the same scene: the picture is nearly the same, only framed
// a few percent tighter, while the mark stays at the scale it was embedded at. Such a copy is
// another picture, never the issued one nor an edit of it; and an honest copy whose mark was read
// a little off its true scale stays the same picture.
describe('compareContent on second shots', () => {
  it('a second shot framed 8 % tighter, whose alignment does not move, is another picture', async () => {
    const of = await mark('grace-hopper-portrait-0.25mp.jpg', 'c0ffee00c0ffee00');
    const copy = await secondShot(of, { zoom: 1.08, left: 14, top: 29, exposure: 1.06 });
    const comparison = await compare(of, copy);
    expect(comparison.state, JSON.stringify(comparison)).toBe('differs');
  });

  it('a second shot of a misty lake framed 7 % tighter is another picture', async () => {
    const of = await mark('dusk-lake-0.5mp.jpg', 'c0ffee00c0ffee00');
    const copy = await secondShot(of, { zoom: 1.07, left: 8, top: 25, exposure: 1.02 });
    const comparison = await compare(of, copy);
    expect(comparison.state, JSON.stringify(comparison)).toBe('differs');
  });

  it('a second shot of a dark lake framed 8 % tighter is another picture', async () => {
    const of = await mark('dark-lake-portrait-1.5mp.jpg', 'c0ffee00c0ffee00');
    const copy = await secondShot(of, { zoom: 1.08, left: 61, top: 83, exposure: 1.09 });
    const comparison = await compare(of, copy);
    expect(comparison.state, JSON.stringify(comparison)).toBe('differs');
  });

  it('a second shot of a dark lake framed 10 % tighter is another picture', async () => {
    const of = await mark('night-lake-0.3mp.jpg', 'c0ffee00c0ffee00');
    const copy = await secondShot(of, { zoom: 1.1, left: 48, top: 24, exposure: 0.99 });
    const comparison = await compare(of, copy);
    expect(comparison.state, JSON.stringify(comparison)).toBe('differs');
  });

  it('a copy resized by 2 % whose mark reads at its own scale is the same picture', async () => {
    // The mark is read as if not rescaled: the content lies 2 % off the mark's geometry, and the
    // mark's own tiles lie there too.
    const of = await mark('dusk-lake-0.5mp.jpg', 'c0ffee00c0ffee00');
    const width = Math.round(of.size.width * 0.98);
    const height = Math.round(of.size.height * 0.98);
    const resized = await sharp(of.image).resize(width, height, { fit: 'fill' }).png().toBuffer();
    const copy = await sharp(resized)
      .extract({
        left: 5,
        top: 3,
        width: Math.round(width * 0.7),
        height: Math.round(height * 0.9),
      })
      .png()
      .toBuffer();
    const comparison = await compare(of, copy);
    expect(comparison.state, JSON.stringify(comparison)).toBe('same');
  });
});
