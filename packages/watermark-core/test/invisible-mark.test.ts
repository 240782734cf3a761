import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  detectMark,
  embedMark,
  ImageTooSmallError,
  InvalidImageError,
  InvisibleMarkError,
  PixelLimitError,
  UnsupportedImageFormatError,
} from '../src/invisible.ts';

const photos = join(import.meta.dirname, '../../../fixtures/photos');
const photo = readFileSync(join(photos, 'boats-0.6mp.jpg'));

/** A photo marked with `payload`, then edited by `edit` (given the marked size): what is detected. */
async function markedCopy(
  file: string,
  payload: bigint,
  edit: (image: Sharp, size: { width: number; height: number }) => Sharp,
): Promise<Uint8Array> {
  const marked = await embedMark(new Uint8Array(readFileSync(join(photos, file))), payload);
  return new Uint8Array(await edit(sharp(marked.image), marked).toBuffer());
}

describe('embedMark / detectMark', () => {
  it('recovers the exact payload from the marked file, with a confidence', async () => {
    const payload = 0xfeed_face_0bad_c0den;
    const marked = await embedMark(new Uint8Array(photo), payload);
    expect(marked).toMatchObject({ format: 'jpeg', width: 1000, height: 625 });
    const detection = await detectMark(marked.image);
    expect(detection.found).toBe(true);
    expect(detection.payload).toBe(payload);
    expect(detection.confidence).toBeGreaterThan(0.5);
    expect(detection.confidence).toBeLessThanOrEqual(1);
  });

  it('finds nothing in the unmarked original', async () => {
    expect(await detectMark(new Uint8Array(photo))).toEqual({
      found: false,
      payload: null,
      confidence: 0,
    });
  });

  it('finds the mark in a crop turned by 90 degrees and mirrored', async () => {
    const payload = 0x0000_0000_0000_0001n;
    const edited = await markedCopy('boats-0.6mp.jpg', payload, (image) =>
      image.rotate(90).flop().extract({ left: 50, top: 120, width: 500, height: 700 }).png(),
    );
    expect(await detectMark(edited)).toMatchObject({ found: true, payload });
  });

  it('reads a 1.5 MP photo after JPEG q10 through the lattice its own size implies', async () => {
    // The 8x8 blocks hide this lattice (chips of 2 detection pixels) from the autocorrelation.
    const payload = 0x9e37_79b9_7f4a_7c1an;
    const q10 = await markedCopy('dark-lake-portrait-1.5mp.jpg', payload, (image) =>
      image.jpeg({ quality: 10 }),
    );
    expect(await detectMark(q10)).toMatchObject({ found: true, payload });
  });

  it('reads a dark star field after JPEG q20 through the chip readout fitted on its pilots', async () => {
    // Black sky with faint stars: the residue around each chip is correlated, which the fitted
    // readout cancels; read at their centres alone, these chips do not decode.
    const payload = 0x5555_aaaa_3333_ccccn;
    const q20 = await markedCopy('deep-field-portrait-0.25mp.jpg', payload, (image) =>
      image.jpeg({ quality: 20 }),
    );
    expect(await detectMark(q20)).toMatchObject({ found: true, payload });
  });

  it('finds the mark in a crop keeping 10 % of a 1.5 MP photo, at its own scale', async () => {
    // Two by three tiles: too few for the autocorrelation; the upright scan finds the period.
    const payload = 0x0123_4567_89ab_cdefn;
    const crop = await markedCopy('forest-path-portrait-1.5mp.jpg', payload, (image, size) => {
      const w = Math.round(size.width * Math.sqrt(0.1));
      const h = Math.round(size.height * Math.sqrt(0.1));
      const left = (size.width - w) >> 1;
      return image.extract({ left, top: (size.height - h) >> 1, width: w, height: h }).png();
    });
    expect(await detectMark(crop)).toMatchObject({ found: true, payload });
  });

  it('marks a flat grey image without failing and without a visible change above 3 levels', async () => {
    const flat = await sharp({
      create: { width: 512, height: 384, channels: 3, background: '#808080' },
    })
      .png()
      .toBuffer();
    const marked = await embedMark(new Uint8Array(flat), 7n);
    const { data } = await sharp(marked.image).raw().toBuffer({ resolveWithObject: true });
    let deviation = 0;
    for (const v of data) deviation = Math.max(deviation, Math.abs(v - 128));
    expect(deviation).toBeGreaterThan(0);
    expect(deviation).toBeLessThanOrEqual(3);
    expect(await detectMark(new Uint8Array(flat))).toMatchObject({ found: false });
  });

  it('gives the same bytes whether marks run one after another or at the same time', async () => {
    const bytes = new Uint8Array(photo);
    const sequential = [await embedMark(bytes, 1n), await embedMark(bytes, 2n)];
    const concurrent = await Promise.all([embedMark(bytes, 1n), embedMark(bytes, 2n)]);
    expect(concurrent.map((m) => Buffer.from(m.image))).toEqual(
      sequential.map((m) => Buffer.from(m.image)),
    );
    expect(
      Buffer.compare(
        Buffer.from(sequential[0]?.image ?? []),
        Buffer.from(sequential[1]?.image ?? []),
      ),
    ).not.toBe(0);
  });

  it('rejects payloads outside 64 bits', async () => {
    await expect(embedMark(new Uint8Array(photo), 1n << 64n)).rejects.toThrow(RangeError);
  });
});

describe('typed errors', () => {
  const expectCode = async (
    promise: Promise<unknown>,
    type: new (...args: never[]) => InvisibleMarkError,
    code: string,
  ) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(type);
    expect(error).toBeInstanceOf(InvisibleMarkError);
    expect((error as InvisibleMarkError).code).toBe(code);
  };

  it('image_too_small below 256 pixels on the short side (128 for detection)', async () => {
    const small = new Uint8Array(
      await sharp(photo).resize(400, 250, { fit: 'fill' }).jpeg().toBuffer(),
    );
    await expectCode(embedMark(small, 1n), ImageTooSmallError, 'image_too_small');
    expect((await detectMark(small)).found).toBe(false);
    const tiny = new Uint8Array(
      await sharp(photo).resize(200, 100, { fit: 'fill' }).jpeg().toBuffer(),
    );
    await expectCode(detectMark(tiny), ImageTooSmallError, 'image_too_small');
  });

  it('too_many_pixels above the configured limit, before decoding', async () => {
    await expectCode(
      embedMark(new Uint8Array(photo), 1n, { maxPixels: 600_000 }),
      PixelLimitError,
      'too_many_pixels',
    );
    await expectCode(
      detectMark(new Uint8Array(photo), { maxPixels: 600_000 }),
      PixelLimitError,
      'too_many_pixels',
    );
  });

  it('invalid_image for bytes that are not an image, or a truncated one', async () => {
    await expectCode(
      embedMark(new TextEncoder().encode('not an image at all'), 1n),
      InvalidImageError,
      'invalid_image',
    );
    await expectCode(
      embedMark(new Uint8Array(photo.subarray(0, photo.length / 2)), 1n),
      InvalidImageError,
      'invalid_image',
    );
  });

  it('unsupported_format for GIF and animated images', async () => {
    const gif = await sharp(photo).gif().toBuffer();
    await expectCode(
      embedMark(new Uint8Array(gif), 1n),
      UnsupportedImageFormatError,
      'unsupported_format',
    );
    const { data, info } = await sharp(photo)
      .resize(300, 600, { fit: 'fill' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const frames = await sharp(data, {
      raw: { width: 300, height: 600, channels: info.channels, pageHeight: 300 },
    })
      .webp({ loop: 0, delay: [100, 100] })
      .toBuffer();
    expect((await sharp(frames).metadata()).pages).toBe(2);
    await expectCode(
      embedMark(new Uint8Array(frames), 1n),
      UnsupportedImageFormatError,
      'unsupported_format',
    );
  });
});
