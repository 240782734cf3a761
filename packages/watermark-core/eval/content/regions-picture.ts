// `node eval/content/regions-picture.ts`: remakes docs/images/verification-regions.png, the
// verification page's example: a marked photo of the set with a patch of another pasted over
// it, re-encoded, verified as the service does, its edited region drawn.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { compareContent, drawRegions, makeContentReference } from '../../src/content/index.ts';
import { detectMark, embedMark, payloadFromHex } from '../../src/invisible.ts';
import { PHOTO_DIR } from './content-task.ts';

const MAX_PIXELS = 50_000_000;
const photo = await readFile(join(PHOTO_DIR, 'boats-0.6mp.jpg'));
const other = await readFile(join(PHOTO_DIR, 'marigold-bokeh-0.6mp.jpg'));
const marked = await embedMark(photo, payloadFromHex('0123456789abcdef'));
const reference = await makeContentReference(marked.image, MAX_PIXELS);
const patch = await sharp(other).resize(150, 110, { fit: 'cover' }).png().toBuffer();
const edited = await sharp(marked.image)
  .composite([
    { input: patch, left: Math.round(marked.width * 0.55), top: Math.round(marked.height * 0.3) },
  ])
  .jpeg({ quality: 85 })
  .toBuffer();
const detection = await detectMark(edited);
if (detection.geometry === undefined) throw new Error('the mark was not read');
const content = await compareContent(edited, {
  reference,
  original: { width: marked.width, height: marked.height },
  geometry: detection.geometry,
  maxPixels: MAX_PIXELS,
});
console.log(content.state, JSON.stringify(content.regions));
const picture = await drawRegions(edited, content.regions, MAX_PIXELS);
const out = join(import.meta.dirname, '../../../../docs/images/verification-regions.png');
await writeFile(
  out,
  await sharp(picture).resize(720).png({ palette: true, quality: 90 }).toBuffer(),
);
console.log(`wrote ${out}`);
