import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { detectMark, embedMark } from '../src/invisible/index.ts';
import { psnr, type RasterImage, ssim } from '../src/invisible/quality-metrics.ts';

const photos = join(import.meta.dirname, '../../../fixtures/photos');

async function raster(image: Uint8Array): Promise<RasterImage> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
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

describe('small images: the flat-area amplitude the quality budget allows', () => {
  it('marks a smooth 0.15 MP sky more strongly than the same sky over 0.4 MP, within SSIM 0.9865 and 40.5 dB', async () => {
    const sky = new Uint8Array(readFileSync(join(photos, 'cloud-sky-portrait-0.15mp.jpg')));
    // The same picture enlarged past the small-image size is marked at the default amplitude.
    const large = new Uint8Array(
      await sharp(sky).resize(720, 960).jpeg({ quality: 92 }).toBuffer(),
    );
    const payload = 0x0bad_cafe_dead_beefn;
    const [smallMarked, largeMarked] = await Promise.all([
      embedMark(sky, payload),
      embedMark(large, payload),
    ]);
    const before = await raster(sky);
    const after = await raster(smallMarked.image);
    const largeRms = markRms(await raster(large), await raster(largeMarked.image));
    expect(markRms(before, after)).toBeGreaterThan(1.15 * largeRms);
    expect(ssim(before, after)).toBeGreaterThanOrEqual(0.9865);
    expect(psnr(before, after)).toBeGreaterThanOrEqual(40.5);
    expect((await detectMark(smallMarked.image)).payload).toBe(payload);
  });

  it('keeps a busy small photo at the default strength when a stronger mark would cost quality', async () => {
    // fig-0.25mp.jpg sits at the mark's RMS cap already (39.5 dB): no candidate fits.
    const fig = new Uint8Array(readFileSync(join(photos, 'fig-0.25mp.jpg')));
    const marked = await embedMark(fig, 1n);
    const value = psnr(await raster(fig), await raster(marked.image));
    expect(value).toBeGreaterThan(38.5);
    expect(value).toBeLessThan(40.5);
  });
});
