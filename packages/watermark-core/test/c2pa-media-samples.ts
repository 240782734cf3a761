// One sample of every format in MEDIA_TYPES for the C2PA media tests: the committed files in
// fixtures/media (see its README for how each was made), the committed photos, and rasters sharp
// makes from one of them. HEIC and HEIF are AVIF-coded containers rebranded, as no HEVC encoder
// ships with sharp.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MediaFormatName } from '@hallmark/schemas';
import sharp from 'sharp';
import { c2paFixture, photo } from './c2pa-fixtures.ts';

export const mediaFixtures = join(import.meta.dirname, '../../../fixtures/media');

export function mediaFixture(name: string): Promise<Buffer> {
  return readFile(join(mediaFixtures, name));
}

const smallPhoto = () => photo('fig-0.25mp.jpg');
const small = async () => sharp(await smallPhoto()).resize(64, 64);

/** The ftyp box's major brand, and any compatible `avif` renamed: the container is unchanged. */
function rebranded(avif: Buffer, major: string, compatibleAvifAs: string): Buffer {
  const copy = Buffer.from(avif);
  copy.write(major, 8, 'latin1');
  const end = copy.readUInt32BE(0);
  for (let at = 16; at + 4 <= end; at += 4) {
    if (copy.toString('latin1', at, at + 4) === 'avif') copy.write(compatibleAvifAs, at, 'latin1');
  }
  return copy;
}

export const MEDIA_SAMPLES: Readonly<Record<MediaFormatName, () => Promise<Buffer>>> = {
  jpeg: smallPhoto,
  png: () => c2paFixture('libpng-test.png'),
  webp: () => c2paFixture('sample1.webp'),
  avif: async () => (await small()).avif().toBuffer(),
  heic: async () => rebranded(await (await small()).avif().toBuffer(), 'heic', 'heic'),
  heif: async () => rebranded(await (await small()).avif().toBuffer(), 'mif1', 'miaf'),
  tiff: async () => (await small()).tiff().toBuffer(),
  gif: async () => (await small()).gif().toBuffer(),
  svg: () => mediaFixture('sample.svg'),
  dng: () => mediaFixture('sample.dng'),
  jxl: () => mediaFixture('sample-container.jxl'),
  mp4: () => mediaFixture('sample.mp4'),
  mov: () => mediaFixture('sample.mov'),
  avi: () => mediaFixture('sample.avi'),
  m4a: () => mediaFixture('sample.m4a'),
  mp3: () => mediaFixture('sample.mp3'),
  wav: () => mediaFixture('sample.wav'),
  flac: () => mediaFixture('sample.flac'),
};
