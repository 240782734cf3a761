// Rebuilds `fixtures/photos/` from Debian wallpaper packages. Run once by hand, not by CI: the
// photos are committed, so a fresh clone never needs apt. Usage:
//   mkdir -p /tmp/debs && cd /tmp/debs && apt-get download lomiri-wallpapers-16.04 \
//     lomiri-wallpapers-20.04 plasma-workspace-wallpapers
//   for d in *.deb; do dpkg-deb -x "$d" /tmp/debs/root; done
//   node eval/prepare-photos.ts /tmp/debs/root
// Every photo is re-encoded as JPEG q92 (4:2:0) so the set stays small; EXIF is dropped.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { photoSet } from './photo-set.ts';

const root = process.argv[2];
if (root === undefined) {
  console.error('usage: node eval/prepare-photos.ts <root of extracted Debian packages>');
  process.exit(2);
}
const out = join(import.meta.dirname, '../../../fixtures/photos');
await mkdir(out, { recursive: true });
for (const photo of photoSet) {
  let image = sharp(join(root, photo.source.path)).autoOrient();
  if (photo.crop) image = image.extract(photo.crop);
  image = image.resize(photo.width, photo.height, { fit: 'fill', kernel: 'lanczos3' });
  const info = await image.jpeg({ quality: 92, mozjpeg: false }).toFile(join(out, photo.file));
  console.log(`${photo.file}: ${info.width}x${info.height}, ${(info.size / 1e6).toFixed(2)} MB`);
}
