// Writes the smallest DNG the C2PA tests need: an 8x8 LinearRaw RGB image in a little-endian
// TIFF whose IFD0 carries the tags a DNG reader requires (DNGVersion, UniqueCameraModel, a colour
// matrix). ffmpeg and sharp write no DNG, and a real camera file is megabytes.
// Usage: node make-minimal-dng.ts <output.dng>
import { writeFileSync } from 'node:fs';

const SIDE = 8;
const BYTE = 1;
const ASCII = 2;
const SHORT = 3;
const LONG = 4;
const RATIONAL = 5;
const SRATIONAL = 10;
const TYPE_SIZE: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 10: 8 };

interface Entry {
  readonly tag: number;
  readonly type: number;
  /** Numbers, or [numerator, denominator] pairs for (S)RATIONAL, or a string for ASCII. */
  readonly values: readonly number[] | string;
}

const pixels = Buffer.alloc(SIDE * SIDE * 3);
for (let index = 0; index < SIDE * SIDE; index++) {
  // A diagonal gradient, so the image is not blank to anyone who opens it.
  const x = index % SIDE;
  const y = Math.floor(index / SIDE);
  pixels.writeUInt8(x * 32, index * 3);
  pixels.writeUInt8(y * 32, index * 3 + 1);
  pixels.writeUInt8(128, index * 3 + 2);
}

function entries(stripOffset: number): Entry[] {
  const identity = [1, 0, 0, 0, 1, 0, 0, 0, 1].flatMap((value) => [value, 1]);
  return [
    { tag: 254, type: LONG, values: [0] }, // NewSubFileType: the main image
    { tag: 256, type: SHORT, values: [SIDE] },
    { tag: 257, type: SHORT, values: [SIDE] },
    { tag: 258, type: SHORT, values: [8, 8, 8] },
    { tag: 259, type: SHORT, values: [1] }, // uncompressed
    { tag: 262, type: SHORT, values: [34892] }, // LinearRaw
    { tag: 271, type: ASCII, values: 'Hallmark' },
    { tag: 272, type: ASCII, values: 'Test sample' },
    { tag: 273, type: LONG, values: [stripOffset] },
    { tag: 274, type: SHORT, values: [1] },
    { tag: 277, type: SHORT, values: [3] },
    { tag: 278, type: SHORT, values: [SIDE] },
    { tag: 279, type: LONG, values: [pixels.length] },
    { tag: 284, type: SHORT, values: [1] },
    { tag: 50706, type: BYTE, values: [1, 4, 0, 0] }, // DNGVersion
    { tag: 50707, type: BYTE, values: [1, 1, 0, 0] }, // DNGBackwardVersion
    { tag: 50708, type: ASCII, values: 'Hallmark test sample' }, // UniqueCameraModel
    { tag: 50721, type: SRATIONAL, values: identity }, // ColorMatrix1
    { tag: 50728, type: RATIONAL, values: [1, 1, 1, 1, 1, 1] }, // AsShotNeutral
    { tag: 50778, type: SHORT, values: [21] }, // CalibrationIlluminant1: D65
  ];
}

function encodeValues(entry: Entry): Buffer {
  if (typeof entry.values === 'string') return Buffer.from(`${entry.values}\0`, 'latin1');
  const size = TYPE_SIZE[entry.type] ?? 1;
  const perValue = entry.type === RATIONAL || entry.type === SRATIONAL ? 4 : size;
  const out = Buffer.alloc(entry.values.length * perValue);
  entry.values.forEach((value, index) => {
    const at = index * perValue;
    if (perValue === 1) out.writeUInt8(value, at);
    else if (perValue === 2) out.writeUInt16LE(value, at);
    else if (entry.type === SRATIONAL) out.writeInt32LE(value, at);
    else out.writeUInt32LE(value, at);
  });
  return out;
}

function count(entry: Entry, encoded: Buffer): number {
  if (typeof entry.values === 'string') return encoded.length;
  return entry.type === RATIONAL || entry.type === SRATIONAL
    ? entry.values.length / 2
    : entry.values.length;
}

function build(): Buffer {
  const entryCount = entries(0).length;
  const ifdSize = 2 + entryCount * 12 + 4;
  const dataStart = 8 + ifdSize;
  // Values over four bytes live after the IFD; their total size does not depend on the strip
  // offset, so one dry run fixes where the pixels go.
  const overflow = (list: Entry[]) =>
    list.map((entry) => encodeValues(entry)).filter((encoded) => encoded.length > 4);
  const overflowSize = overflow(entries(0)).reduce((sum, part) => sum + part.length, 0);
  const stripOffset = dataStart + overflowSize;

  const header = Buffer.from([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0]);
  const ifd = Buffer.alloc(ifdSize);
  ifd.writeUInt16LE(entryCount, 0);
  const extra: Buffer[] = [];
  let nextData = dataStart;
  entries(stripOffset).forEach((entry, index) => {
    const encoded = encodeValues(entry);
    const at = 2 + index * 12;
    ifd.writeUInt16LE(entry.tag, at);
    ifd.writeUInt16LE(entry.type, at + 2);
    ifd.writeUInt32LE(count(entry, encoded), at + 4);
    if (encoded.length <= 4) {
      encoded.copy(ifd, at + 8);
    } else {
      ifd.writeUInt32LE(nextData, at + 8);
      extra.push(encoded);
      nextData += encoded.length;
    }
  });
  ifd.writeUInt32LE(0, 2 + entryCount * 12); // no further IFD
  return Buffer.concat([header, ifd, ...extra, pixels]);
}

const output = process.argv[2];
if (output === undefined) throw new Error('usage: node make-minimal-dng.ts <output.dng>');
writeFileSync(output, build());
