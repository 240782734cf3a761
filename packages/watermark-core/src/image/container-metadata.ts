// Copies metadata blocks from the original file into the freshly encoded marked file, byte for
// byte: sharp encodes raw pixels without metadata, and re-attaching it through sharp would either
// transform the pixels (ICC) or lose fields (EXIF as key/value strings). Only blocks that describe
// the picture are copied; blocks tied to the old bitstream are left out: JPEG Adobe APP14 (colour
// transform) and MPF (offsets of appended images), PNG palette/transparency chunks, and any C2PA
// manifest (JPEG APP11, PNG caBX), whose hash no longer matches once the pixels carry the mark.

const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
};

const ascii = (bytes: Uint8Array, start: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(start, start + length));

// ---------------------------------------------------------------- JPEG

interface JpegSegment {
  readonly marker: number;
  readonly start: number;
  readonly end: number;
}

/** Marker segments before the first SOS, and the offset where the rest of the file begins. */
function jpegHeaderSegments(jpeg: Uint8Array): { segments: JpegSegment[]; bodyStart: number } {
  const segments: JpegSegment[] = [];
  let pos = 2;
  while (pos + 4 <= jpeg.length && jpeg[pos] === 0xff) {
    const marker = jpeg[pos + 1] as number;
    if (marker === 0xda) break;
    const end = pos + 2 + (((jpeg[pos + 2] as number) << 8) | (jpeg[pos + 3] as number));
    segments.push({ marker, start: pos, end });
    pos = end;
  }
  return { segments, bodyStart: pos };
}

function isCopiedJpegSegment(jpeg: Uint8Array, segment: JpegSegment): boolean {
  const { marker, start } = segment;
  const isApp = marker >= 0xe1 && marker <= 0xef;
  if (!isApp && marker !== 0xfe) return false;
  if (marker === 0xee && ascii(jpeg, start + 4, 5) === 'Adobe') return false;
  if (marker === 0xe2 && ascii(jpeg, start + 4, 4) === 'MPF\0') return false;
  if (marker === 0xeb) return false;
  return true;
}

function transplantJpeg(source: Uint8Array, encoded: Uint8Array): Uint8Array {
  const copied = jpegHeaderSegments(source).segments.filter((s) => isCopiedJpegSegment(source, s));
  if (copied.length === 0) return encoded;
  const target = jpegHeaderSegments(encoded);
  // Keep the encoder's own JFIF APP0 first, then the original's blocks, then the bitstream tables.
  const own = target.segments.filter((s) => s.marker === 0xe0);
  const rest = target.segments.filter(
    (s) => s.marker !== 0xe0 && !(s.marker >= 0xe1 && s.marker <= 0xef) && s.marker !== 0xfe,
  );
  return concat([
    encoded.subarray(0, 2),
    ...own.map((s) => encoded.subarray(s.start, s.end)),
    ...copied.map((s) => source.subarray(s.start, s.end)),
    ...rest.map((s) => encoded.subarray(s.start, s.end)),
    encoded.subarray(target.bodyStart),
  ]);
}

// ---------------------------------------------------------------- PNG

interface PngChunk {
  readonly type: string;
  readonly start: number;
  readonly end: number;
}

function pngChunks(png: Uint8Array): PngChunk[] {
  const chunks: PngChunk[] = [];
  let pos = 8;
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  while (pos + 12 <= png.length) {
    const length = view.getUint32(pos);
    const type = ascii(png, pos + 4, 4);
    const end = pos + 12 + length;
    chunks.push({ type, start: pos, end });
    pos = end;
    if (type === 'IEND') break;
  }
  return chunks;
}

const COPIED_PNG_CHUNKS = new Set([
  'iCCP',
  'sRGB',
  'gAMA',
  'cHRM',
  'cICP',
  'mDCV',
  'cLLI',
  'pHYs',
  'eXIf',
  'tEXt',
  'zTXt',
  'iTXt',
  'tIME',
]);

function transplantPng(source: Uint8Array, encoded: Uint8Array): Uint8Array {
  const copied = pngChunks(source).filter((c) => COPIED_PNG_CHUNKS.has(c.type));
  if (copied.length === 0) return encoded;
  const copiedTypes = new Set(copied.map((c) => c.type));
  const target = pngChunks(encoded);
  const [header, ...others] = target;
  if (header === undefined || header.type !== 'IHDR') return encoded;
  // Colour chunks must precede IDAT, so everything copied goes right after IHDR.
  return concat([
    encoded.subarray(0, header.end),
    ...copied.map((c) => source.subarray(c.start, c.end)),
    ...others.filter((c) => !copiedTypes.has(c.type)).map((c) => encoded.subarray(c.start, c.end)),
  ]);
}

// ---------------------------------------------------------------- WebP

interface RiffChunk {
  readonly fourcc: string;
  readonly start: number;
  readonly end: number;
  readonly data: Uint8Array;
}

function webpChunks(webp: Uint8Array): RiffChunk[] {
  const chunks: RiffChunk[] = [];
  const view = new DataView(webp.buffer, webp.byteOffset, webp.byteLength);
  let pos = 12;
  while (pos + 8 <= webp.length) {
    const size = view.getUint32(pos + 4, true);
    const end = Math.min(webp.length, pos + 8 + size + (size & 1));
    chunks.push({
      fourcc: ascii(webp, pos, 4),
      start: pos,
      end,
      data: webp.subarray(pos + 8, pos + 8 + size),
    });
    pos = end;
  }
  return chunks;
}

/** True when a WebP's bitstream is lossless (VP8L). */
export function isLosslessWebp(webp: Uint8Array): boolean {
  return webpChunks(webp).some((c) => c.fourcc === 'VP8L');
}

function transplantWebp(
  source: Uint8Array,
  encoded: Uint8Array,
  hasAlpha: boolean,
  width: number,
  height: number,
): Uint8Array {
  const sourceChunks = webpChunks(source);
  const icc = sourceChunks.find((c) => c.fourcc === 'ICCP');
  const exif = sourceChunks.find((c) => c.fourcc === 'EXIF');
  const xmp = sourceChunks.find((c) => c.fourcc === 'XMP ');
  if (!icc && !exif && !xmp) return encoded;
  const image = webpChunks(encoded).filter(
    (c) => c.fourcc === 'ALPH' || c.fourcc === 'VP8 ' || c.fourcc === 'VP8L',
  );
  const vp8x = new Uint8Array(18);
  const view = new DataView(vp8x.buffer);
  vp8x.set([0x56, 0x50, 0x38, 0x58]);
  view.setUint32(4, 10, true);
  vp8x[8] = (icc ? 0x20 : 0) | (hasAlpha ? 0x10 : 0) | (exif ? 0x08 : 0) | (xmp ? 0x04 : 0);
  const setUint24 = (offset: number, value: number) => {
    vp8x[offset] = value & 0xff;
    vp8x[offset + 1] = (value >> 8) & 0xff;
    vp8x[offset + 2] = (value >> 16) & 0xff;
  };
  setUint24(12, width - 1);
  setUint24(15, height - 1);
  const body = concat([
    vp8x,
    ...(icc ? [source.subarray(icc.start, icc.end)] : []),
    ...image.map((c) => encoded.subarray(c.start, c.end)),
    ...(exif ? [source.subarray(exif.start, exif.end)] : []),
    ...(xmp ? [source.subarray(xmp.start, xmp.end)] : []),
  ]);
  const header = new Uint8Array(12);
  header.set([0x52, 0x49, 0x46, 0x46]);
  new DataView(header.buffer).setUint32(4, body.length + 4, true);
  header.set([0x57, 0x45, 0x42, 0x50], 8);
  return concat([header, body]);
}

export interface TransplantTarget {
  readonly format: 'jpeg' | 'png' | 'webp';
  readonly hasAlpha: boolean;
  readonly width: number;
  readonly height: number;
}

/**
 * `encoded` with the original's descriptive metadata (EXIF incl. orientation, ICC profile, XMP,
 * IPTC, comments, PNG text and colour chunks) copied in from `source` of the same format.
 */
export function transplantMetadata(
  source: Uint8Array,
  encoded: Uint8Array,
  target: TransplantTarget,
): Uint8Array {
  switch (target.format) {
    case 'jpeg':
      return transplantJpeg(source, encoded);
    case 'png':
      return transplantPng(source, encoded);
    case 'webp':
      return transplantWebp(source, encoded, target.hasAlpha, target.width, target.height);
  }
}
