// `node eval/make-crops.ts`: writes the README's before/after crops (eval/crops/*.png). Each shows
// the same 256x256 patch of a flat area, original left and marked right, enlarged 2x without
// smoothing, so that any pattern the mark leaves in skies or flat tones would be visible.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { embedMark } from '../src/invisible.ts';
import { PHOTO_DIR } from './evaluate.ts';

const crops = [
  { file: 'kite-sky-2mp.jpg', left: 700, top: 180, out: 'sky-before-after.png' },
  { file: 'fog-pier-1.5mp.jpg', left: 120, top: 40, out: 'fog-before-after.png' },
];
const SIZE = 256;
const ZOOM = 2;
const GAP = 8;

for (const crop of crops) {
  const original = new Uint8Array(await readFile(join(PHOTO_DIR, crop.file)));
  const marked = (await embedMark(original, 0x0123_4567_89ab_cdefn)).image;
  const patch = (image: Uint8Array) =>
    sharp(image)
      .extract({ left: crop.left, top: crop.top, width: SIZE, height: SIZE })
      .resize(SIZE * ZOOM, SIZE * ZOOM, { kernel: 'nearest' })
      .png()
      .toBuffer();
  await sharp({
    create: {
      width: 2 * SIZE * ZOOM + GAP,
      height: SIZE * ZOOM,
      channels: 3,
      background: '#ffffff',
    },
  })
    .composite([
      { input: await patch(original), left: 0, top: 0 },
      { input: await patch(marked), left: SIZE * ZOOM + GAP, top: 0 },
    ])
    .png()
    .toFile(join(import.meta.dirname, 'crops', crop.out));
  console.log(`eval/crops/${crop.out}: ${crop.file} at (${crop.left}, ${crop.top})`);
}
