// What image container a file is, from its first bytes: a file name or a client's Content-Type
// can lie. Part of the contract because the API's upload check (415) and the engines must agree
// on it; pure, so the API checks uploads without loading the native engines.

/** The containers Hallmark recognises as images (all can carry a C2PA manifest). */
export type ImageFormatName = 'jpeg' | 'png' | 'webp' | 'avif' | 'heic' | 'heif' | 'tiff' | 'gif';

export type SniffedFormat =
  | { readonly image: true; readonly format: ImageFormatName; readonly mimeType: string }
  /** Something else, named when recognised (`pdf`, `mp4`, …), else `unknown`. */
  | { readonly image: false; readonly format: string };

const MIME_TYPES: Readonly<Record<ImageFormatName, string>> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  heic: 'image/heic',
  heif: 'image/heif',
  tiff: 'image/tiff',
  gif: 'image/gif',
};

export const IMAGE_FORMATS: readonly ImageFormatName[] = Object.keys(
  MIME_TYPES,
) as ImageFormatName[];

export function mimeTypeOf(format: ImageFormatName): string {
  return MIME_TYPES[format];
}

/** Identifies the container from its first bytes (64 are enough for every format here). */
export function sniffImageFormat(bytes: Uint8Array): SniffedFormat {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return image('jpeg');
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return image('png');
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return image('webp');
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return image('gif');
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) {
    return image('tiff');
  }
  if (ascii(bytes, 4, 4) === 'ftyp') return isoBmffFormat(bytes);
  if (ascii(bytes, 0, 2) === 'BM') return other('bmp');
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0x00])) return other('ico');
  if (ascii(bytes, 0, 5) === '%PDF-') return other('pdf');
  if (ascii(bytes, 0, 4) === '8BPS') return other('psd');
  if (startsWith(bytes, [0xff, 0x0a]) || ascii(bytes, 4, 4) === 'JXL ') return other('jxl');
  if (ascii(bytes, 4, 4) === 'jP  ') return other('jpeg2000');
  if (/<svg[\s>]/.test(ascii(bytes, 0, 1024))) return other('svg');
  return other('unknown');
}

const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx']);
const AVIF_BRANDS = new Set(['avif', 'avis']);

function image(format: ImageFormatName): SniffedFormat {
  return { image: true, format, mimeType: MIME_TYPES[format] };
}

function other(format: string): SniffedFormat {
  return { image: false, format };
}

/** ISO BMFF shares one box layout between stills and video; the `ftyp` brands tell them apart. */
function isoBmffFormat(bytes: Uint8Array): SniffedFormat {
  // Real ftyp boxes list a handful of brands; the cap keeps a forged box size from making this
  // walk the whole file.
  const end = Math.min(readUint32(bytes, 0), bytes.length, 256);
  const brands = [ascii(bytes, 8, 4)];
  for (let offset = 16; offset + 4 <= end; offset += 4) {
    brands.push(ascii(bytes, offset, 4));
  }
  const major = brands[0] ?? '';
  if (AVIF_BRANDS.has(major)) return image('avif');
  if (HEIC_BRANDS.has(major)) return image('heic');
  if (major === 'mif1' || major === 'msf1') {
    if (brands.some((brand) => AVIF_BRANDS.has(brand))) return image('avif');
    if (brands.some((brand) => HEIC_BRANDS.has(brand))) return image('heic');
    return image('heif');
  }
  if (major === 'qt  ') return other('quicktime');
  if (/^(iso|mp4|avc|M4)/.test(major)) return other('mp4');
  return other(`iso-bmff/${major.trim()}`);
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte);
}

function ascii(bytes: Uint8Array, offset: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + length));
}

function readUint32(bytes: Uint8Array, offset: number): number {
  if (bytes.length < offset + 4) return 0;
  return new DataView(bytes.buffer, bytes.byteOffset + offset, 4).getUint32(0);
}
