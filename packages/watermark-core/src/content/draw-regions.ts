// A picture people can read: the copy with the regions where it differs from the issued picture
// outlined (a dark-edged red frame, visible on light and dark content alike).
import sharp from 'sharp';
import type { Region } from './regions.ts';

/**
 * The image as PNG with each region outlined; pixels as stored (no EXIF rotation, the regions'
 * frame). The outline's width follows the image's size.
 */
export async function drawRegions(
  image: Uint8Array,
  regions: readonly Region[],
  maxPixels: number,
): Promise<Uint8Array> {
  const base = sharp(image, { limitInputPixels: maxPixels, failOn: 'none' });
  const { width = 0, height = 0 } = await base.metadata();
  const stroke = Math.max(2, Math.round(Math.min(width, height) / 150));
  const frames = regions
    .map((r) => {
      const box = `x="${r.x}" y="${r.y}" width="${r.width}" height="${r.height}" fill="none"`;
      return `<rect ${box} stroke="#000" stroke-opacity="0.6" stroke-width="${stroke * 2}"/><rect ${box} stroke="#ff2d2d" stroke-width="${stroke}"/>`;
    })
    .join('');
  const overlay = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${frames}</svg>`,
  );
  return new Uint8Array(
    await base
      .toColourspace('srgb')
      .composite([{ input: overlay, left: 0, top: 0 }])
      .png()
      .toBuffer(),
  );
}
