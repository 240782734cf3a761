import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { psnr, type RasterImage, ssim } from '../src/image/quality-metrics.ts';
import { detectMark, embedMark } from '../src/invisible.ts';

const photos = join(import.meta.dirname, '../../../fixtures/photos');
const photo = (file: string) => new Uint8Array(readFileSync(join(photos, file)));

/** The image's 8-bit RGB samples, as a display shows it (16-bit samples keep their top byte). */
async function raster(image: Uint8Array): Promise<RasterImage> {
  const { data, info } = await sharp(image)
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 };
}

/** Root-mean-square luma change the mark made, in 8-bit levels. */
function markRms(a: RasterImage, b: RasterImage): number {
  let sum = 0;
  for (let i = 0; i < a.data.length; i += 3) {
    const d = (b.data[i + 1] as number) - (a.data[i + 1] as number);
    sum += d * d;
  }
  return Math.sqrt(sum / (a.data.length / 3));
}

/** The marked file against its original, as a viewer decodes both. */
async function quality(original: Uint8Array, marked: Uint8Array) {
  const [before, after] = await Promise.all([raster(original), raster(marked)]);
  return { psnr: psnr(before, after), ssim: ssim(before, after), rms: markRms(before, after) };
}

describe('the quality floor: every marked file keeps PSNR >= 40 dB and SSIM >= 0.985', () => {
  it('marks a smooth RGB sky more strongly than the default at every size, within the floor', async () => {
    const sky = photo('cloud-sky-portrait-0.15mp.jpg');
    // The sky at 0.7 MP (measured whole) and 4.3 MP (on sampled windows), and a grey copy, which
    // keeps the default amplitude.
    const resized = (width: number, height: number, grey = false) =>
      sharp(sky)
        .resize(width, height)
        .toColourspace(grey ? 'b-w' : 'srgb')
        .jpeg({ quality: 92 })
        .toBuffer()
        .then((b) => new Uint8Array(b));
    const images = await Promise.all([
      Promise.resolve(sky),
      resized(720, 960),
      resized(1800, 2400),
      resized(720, 960, true),
    ]);
    const payload = 0x0bad_cafe_dead_beefn;
    const marked = await Promise.all(images.map((image) => embedMark(image, payload)));
    const [small, medium, large, grey] = await Promise.all(
      images.map((image, i) => quality(image, (marked[i] as { image: Uint8Array }).image)),
    );
    for (const q of [small, medium, large]) {
      expect(q?.rms).toBeGreaterThan(1.15 * (grey?.rms ?? Infinity));
      expect(q?.ssim).toBeGreaterThanOrEqual(0.985);
      expect(q?.psnr).toBeGreaterThanOrEqual(40);
    }
    expect((await detectMark((marked[0] as { image: Uint8Array }).image)).payload).toBe(payload);
  });

  // At the default strength these leave the floor (the fig's mark at the RMS cap and the JPEG
  // re-encode adding its own error; the dark deep-sky photo short of SSIM): README.md#design.
  it.each([
    ['busy, at the RMS cap', 'fig-0.25mp.jpg', 'psnr'],
    ['dark and smooth', 'deep-field-portrait-0.25mp.jpg', 'ssim'],
    ['busy, 0.55 MP', 'paintbrushes-portrait-0.55mp.jpg', 'psnr'],
  ] as const)(
    'cuts the mark of a %s photo to the floor, and it is still found (%s)',
    async (_, file, limit) => {
      const original = photo(file);
      const payload = 0x5eed_f00d_1234_5678n;
      const marked = await embedMark(original, payload);
      const measured = await quality(original, marked.image);
      expect(measured.psnr).toBeGreaterThanOrEqual(40);
      expect(measured.ssim).toBeGreaterThanOrEqual(0.985);
      // Cut to the floor by the measure that was short, not far below it.
      if (limit === 'psnr') expect(measured.psnr).toBeLessThan(41);
      else expect(measured.ssim).toBeLessThan(0.987);
      expect((await detectMark(marked.image)).payload).toBe(payload);
    },
  );

  it('spends both measures on a busy thumbnail: stronger flat areas, the busiest chips cut to fit PSNR', async () => {
    // The 0.15 MP avatar (busy backdrop and suit) reached the PSNR floor at the default flat-area
    // amplitude with SSIM to spare; its flat areas now take more of the mark and its busiest chips
    // less, which its WebP copies are found by (README.md#design, quality floor).
    const avatar = photo('astronaut-avatar-0.15mp.jpg');
    const payloads = [0x1111_2222_3333_4444n, 0x9abc_def0_1234_5678n, 0x0f0f_a5a5_3c3c_7e7en];
    for (const payload of payloads) {
      const marked = await embedMark(avatar, payload);
      const measured = await quality(avatar, marked.image);
      expect(measured.psnr).toBeGreaterThanOrEqual(40);
      expect(measured.psnr).toBeLessThan(40.5);
      expect(measured.ssim).toBeGreaterThanOrEqual(0.985);
      expect(measured.ssim).toBeLessThan(0.989);
      const webp = new Uint8Array(await sharp(marked.image).webp({ quality: 80 }).toBuffer());
      expect((await detectMark(webp)).payload).toBe(payload);
    }
  });

  it('measures a 6 MP photo on sample windows and cuts it to the floor too', async () => {
    // Enlarged and sharpened: busy texture over 5.9 MP, under 40 dB at the default strength.
    const moss = photo('moss-1mp.jpg');
    const { width = 0, height = 0 } = await sharp(moss).metadata();
    const large = new Uint8Array(
      await sharp(moss)
        .resize(Math.round(width * 2.4), Math.round(height * 2.4))
        .sharpen({ sigma: 1.5 })
        .jpeg({ quality: 90 })
        .toBuffer(),
    );
    const payload = 0x0123_4567_89ab_cdefn;
    const marked = await embedMark(large, payload);
    const measured = await quality(large, marked.image);
    expect(measured.psnr).toBeGreaterThanOrEqual(40);
    expect(measured.psnr).toBeLessThan(41);
    expect(measured.ssim).toBeGreaterThanOrEqual(0.985);
    expect((await detectMark(marked.image)).payload).toBe(payload);
  });

  it('measures a lossless file on its pixels: a PNG of a smooth sunset sky is cut to the floor too', async () => {
    // At the default strength this PNG has SSIM 0.9849 (0.6 MP: the sparse SSIM estimate).
    const png = new Uint8Array(
      await sharp(photo('sunset-clouds-portrait-0.6mp.jpg')).png().toBuffer(),
    );
    const marked = await embedMark(png, 7n);
    const measured = await quality(png, marked.image);
    expect(measured.psnr).toBeGreaterThanOrEqual(40);
    expect(measured.ssim).toBeGreaterThanOrEqual(0.985);
    expect((await detectMark(marked.image)).payload).toBe(7n);
  });

  it('measures 16-bit files too: a 16-bit PNG of the smooth sunset is cut to the floor, and stays 16-bit', async () => {
    // Before 16-bit files were measured they kept the default strength, under the SSIM floor here
    // on the 8-bit view (README.md#design).
    const png16 = new Uint8Array(
      await sharp(photo('sunset-clouds-portrait-0.6mp.jpg'))
        .toColourspace('rgb16')
        .png()
        .toBuffer(),
    );
    const marked = await embedMark(png16, 11n);
    expect((await sharp(marked.image).metadata()).depth).toBe('ushort');
    const measured = await quality(png16, marked.image);
    expect(measured.psnr).toBeGreaterThanOrEqual(40);
    expect(measured.ssim).toBeGreaterThanOrEqual(0.985);
    expect((await detectMark(marked.image)).payload).toBe(11n);
  });
});
