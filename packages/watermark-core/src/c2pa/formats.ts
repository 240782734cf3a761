// Which image containers can carry a manifest, recognised by their magic bytes: a file name or a
// client's Content-Type can lie, and c2pa-node needs the true MIME type to find the right parser.
import { UnsupportedFormatError } from './errors.ts';

/** Containers c2pa-node 0.8.0 embeds manifests in, each verified by this module's tests. */
export type C2paFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'heic' | 'heif' | 'tiff' | 'gif';

const MIME_TYPES: Readonly<Record<C2paFormat, string>> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  heic: 'image/heic',
  heif: 'image/heif',
  tiff: 'image/tiff',
  gif: 'image/gif',
};

export const C2PA_FORMATS: readonly C2paFormat[] = Object.keys(MIME_TYPES) as C2paFormat[];

export function mimeTypeOf(format: C2paFormat): string {
  return MIME_TYPES[format];
}

/** Identifies the container from its first bytes; throws UnsupportedFormatError otherwise. */
export function detectC2paFormat(bytes: Uint8Array): C2paFormat {
  const found = sniff(bytes);
  if (found.supported) return found.format;
  throw new UnsupportedFormatError(found.format);
}

type Sniffed = { supported: true; format: C2paFormat } | { supported: false; format: string };

function sniff(bytes: Uint8Array): Sniffed {
  const supported = (format: C2paFormat): Sniffed => ({ supported: true, format });
  const other = (format: string): Sniffed => ({ supported: false, format });
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return supported('jpeg');
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return supported('png');
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return supported('webp');
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return supported('gif');
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) {
    return supported('tiff');
  }
  if (ascii(bytes, 4, 4) === 'ftyp') return sniffIsoBmff(bytes);
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

/** ISO BMFF shares one box layout between stills and video; the `ftyp` brands tell them apart. */
function sniffIsoBmff(bytes: Uint8Array): Sniffed {
  // Real ftyp boxes list a handful of brands; the cap keeps a forged box size from making this
  // walk the whole file.
  const end = Math.min(readUint32(bytes, 0), bytes.length, 256);
  const brands = [ascii(bytes, 8, 4)];
  for (let offset = 16; offset + 4 <= end; offset += 4) {
    brands.push(ascii(bytes, offset, 4));
  }
  const major = brands[0] ?? '';
  if (AVIF_BRANDS.has(major)) return { supported: true, format: 'avif' };
  if (HEIC_BRANDS.has(major)) return { supported: true, format: 'heic' };
  if (major === 'mif1' || major === 'msf1') {
    if (brands.some((brand) => AVIF_BRANDS.has(brand))) return { supported: true, format: 'avif' };
    if (brands.some((brand) => HEIC_BRANDS.has(brand))) return { supported: true, format: 'heic' };
    return { supported: true, format: 'heif' };
  }
  if (major === 'qt  ') return { supported: false, format: 'quicktime' };
  if (/^(iso|mp4|avc|M4)/.test(major)) return { supported: false, format: 'mp4' };
  return { supported: false, format: `iso-bmff/${major.trim()}` };
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
