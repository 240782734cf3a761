// Rebuilds `fixtures/photos/` from Debian packages (bookworm). Run once by hand, not by CI: the
// photos are committed, so a fresh clone never needs apt. Usage:
//   mkdir -p /tmp/debs && cd /tmp/debs && apt-get download lomiri-wallpapers-16.04 \
//     lomiri-wallpapers-20.04 plasma-workspace-wallpapers mate-backgrounds lxqt-themes \
//     gnome-backgrounds gnome-user-docs gimp-help-en gimp-help-common python3-skimage \
//     python-matplotlib-data python3-sklearn
//   for d in *.deb; do dpkg-deb -x "$d" /tmp/debs/root; done
//   node eval/prepare-photos.ts /tmp/debs/root [--force] [--only REGEX]
// Photos whose file already exists are skipped (the committed ones stay byte for byte as they
// are), unless `--force` is given; `--only` keeps the photos whose file name matches.
// Every photo is re-encoded as JPEG q92 (4:2:0) so the set stays small; EXIF is dropped.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { photoSet } from './photo-set.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { force: { type: 'boolean', default: false }, only: { type: 'string' } },
});
const root = positionals[0];
if (root === undefined) {
  console.error(
    'usage: node eval/prepare-photos.ts <root of extracted Debian packages> [--force] [--only REGEX]',
  );
  process.exit(2);
}
const only = values.only === undefined ? undefined : new RegExp(values.only);
const out = join(import.meta.dirname, '../../../fixtures/photos');
await mkdir(out, { recursive: true });
for (const photo of photoSet) {
  if (only && !only.test(photo.file)) continue;
  const file = join(out, photo.file);
  if (!values.force && existsSync(file)) {
    console.log(`${photo.file}: exists, skipped`);
    continue;
  }
  let image = sharp(join(root, photo.source.path)).autoOrient();
  if (photo.crop) image = image.extract(photo.crop);
  image = image.resize(photo.width, photo.height, { fit: 'fill', kernel: 'lanczos3' });
  const info = await image.jpeg({ quality: 92, mozjpeg: false }).toFile(file);
  console.log(`${photo.file}: ${info.width}x${info.height}, ${(info.size / 1e6).toFixed(2)} MB`);
}
