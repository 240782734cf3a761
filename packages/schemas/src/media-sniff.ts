// What media container a file is, from its first bytes: a file name or a client's Content-Type
// can lie, and c2pa-node needs the true MIME type to pick its parser.
import { type MediaFormatName, type MediaType, mediaTypeFor } from './media-format.ts';

/**
 * The most leading bytes sniffMediaFormat looks at. SVG may open with a long prolog (comments, a
 * doctype) before `<svg`, and a DNG is told from a TIFF by a tag in its first directory.
 */
export const SNIFF_BYTES = 4096;

export type SniffedMedia =
  | { readonly known: true; readonly type: MediaType }
  /** Not a format Hallmark signs: named when recognised (`pdf`, `bmp`, `riff/CDXA`…), else `unknown`. */
  | { readonly known: false; readonly format: string };

/**
 * Identifies the container from its first bytes (pass up to SNIFF_BYTES; fewer may do, more are
 * not read). An ID3v2 tag opens MP3s, and FLACs too once C2PA-signed (the manifest rides in the
 * tag): what follows the tag tells them apart. Pass those bytes as `afterId3Tag` when the tag
 * (id3TagLength) ends beyond `bytes`; without them such a file reads as MP3.
 */
export function sniffMediaFormat(bytes: Uint8Array, afterId3Tag?: Uint8Array): SniffedMedia {
  const head = bytes.subarray(0, SNIFF_BYTES);
  if (startsWith(head, [0xff, 0xd8, 0xff])) return known('jpeg');
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return known('png');
  if (ascii(head, 0, 4) === 'RIFF') return riffFormat(ascii(head, 8, 4));
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return known('gif');
  if (tiffByteOrder(head) !== undefined) return known(hasDngVersion(head) ? 'dng' : 'tiff');
  if (ascii(head, 4, 4) === 'ftyp') return isoBmffFormat(head);
  if (ascii(head, 0, 4) === 'fLaC') return known('flac');
  const tagLength = id3TagLength(head);
  if (tagLength !== undefined) return afterId3(bytes, tagLength, afterId3Tag);
  if (isMp3Frame(head, 0)) return known('mp3');
  if (startsWith(head, JXL_CONTAINER)) return known('jxl');
  // c2pa-node signs JPEG XL only in its box container: a bare codestream is named, not accepted.
  if (startsWith(head, [0xff, 0x0a])) return other('jxl-codestream');
  if (ascii(head, 0, 2) === 'BM') return other('bmp');
  if (startsWith(head, [0x00, 0x00, 0x01, 0x00])) return other('ico');
  if (ascii(head, 0, 5) === '%PDF-') return other('pdf');
  if (ascii(head, 0, 4) === '8BPS') return other('psd');
  if (ascii(head, 4, 4) === 'jP  ') return other('jpeg2000');
  if (isSvg(head)) return known('svg');
  return other('unknown');
}

/** The JPEG XL signature box that opens the container format. */
const JXL_CONTAINER = [0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a];

function known(format: MediaFormatName): SniffedMedia {
  return { known: true, type: mediaTypeFor(format) };
}

function other(format: string): SniffedMedia {
  return { known: false, format };
}

function riffFormat(form: string): SniffedMedia {
  if (form === 'WEBP') return known('webp');
  if (form === 'AVI ') return known('avi');
  if (form === 'WAVE') return known('wav');
  return other(`riff/${form.trim()}`);
}

const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx']);
const AVIF_BRANDS = new Set(['avif', 'avis']);
const MP4_BRANDS = new Set([
  'isom',
  'iso2',
  'iso4',
  'iso5',
  'iso6',
  'mp41',
  'mp42',
  'avc1',
  'dash',
]);

/** ISO BMFF shares one box layout between stills, video and audio; the `ftyp` brands tell them apart. */
function isoBmffFormat(bytes: Uint8Array): SniffedMedia {
  // Real ftyp boxes list a handful of brands; the cap keeps a forged box size from making this
  // walk the whole head.
  const end = Math.min(readUint32(bytes, 0), bytes.length, 256);
  const brands = [ascii(bytes, 8, 4)];
  for (let offset = 16; offset + 4 <= end; offset += 4) {
    brands.push(ascii(bytes, offset, 4));
  }
  const major = brands[0] ?? '';
  if (AVIF_BRANDS.has(major)) return known('avif');
  if (HEIC_BRANDS.has(major)) return known('heic');
  if (major === 'mif1' || major === 'msf1') {
    if (brands.some((brand) => AVIF_BRANDS.has(brand))) return known('avif');
    if (brands.some((brand) => HEIC_BRANDS.has(brand))) return known('heic');
    return known('heif');
  }
  if (major === 'qt  ') return known('mov');
  if (major === 'M4A ' || major === 'M4B ') return known('m4a');
  if (MP4_BRANDS.has(major) || major.startsWith('M4V')) return known('mp4');
  return other(`iso-bmff/${major.trim()}`);
}

/**
 * The length of the ID3v2 tag that opens `bytes` (header, body and any footer), or undefined when
 * none does: the offset a caller holding the file reads `afterId3Tag` from.
 */
export function id3TagLength(bytes: Uint8Array): number | undefined {
  if (ascii(bytes, 0, 3) !== 'ID3' || bytes.length < 10) return undefined;
  // The body size is "syncsafe": four 7-bit groups, so no byte of it looks like an MPEG sync.
  const body = [6, 7, 8, 9].reduce((size, at) => size * 128 + ((bytes[at] ?? 0) & 0x7f), 0);
  const footer = ((bytes[5] ?? 0) & 0x10) === 0 ? 0 : 10;
  return 10 + body + footer;
}

/** What follows the tag decides; a tag longer than all the bytes at hand is taken to open an MP3. */
function afterId3(bytes: Uint8Array, tagLength: number, after?: Uint8Array): SniffedMedia {
  const next = tagLength + 4 <= bytes.length ? bytes.subarray(tagLength) : after;
  if (next === undefined || next.length < 4) return known('mp3');
  if (ascii(next, 0, 4) === 'fLaC') return known('flac');
  if (isMp3Frame(next, 0)) return known('mp3');
  if (isAdtsFrame(next, 0)) return other('aac');
  return other('id3/unknown');
}

/**
 * An MPEG audio frame header of layer III: 11 sync bits, a valid version and layer III, a bitrate
 * and sample rate that are not reserved. JPEG (FF D8) fails the sync bits, AAC's ADTS (FF F1)
 * names layer 0, and a JPEG XL codestream (FF 0A) fails both.
 */
function isMp3Frame(bytes: Uint8Array, at: number): boolean {
  const [first, second, third] = [bytes[at], bytes[at + 1], bytes[at + 2]];
  if (first !== 0xff || second === undefined || third === undefined) return false;
  const sync = (second & 0xe0) === 0xe0;
  const version = (second >> 3) & 0x03; // 1 is reserved
  const layer = (second >> 1) & 0x03; // 1 is layer III
  const bitrate = third >> 4; // 15 is invalid
  const sampleRate = (third >> 2) & 0x03; // 3 is reserved
  return sync && version !== 1 && layer === 1 && bitrate !== 15 && sampleRate !== 3;
}

/** An AAC ADTS frame header: 12 sync bits, then layer 0. */
function isAdtsFrame(bytes: Uint8Array, at: number): boolean {
  return bytes[at] === 0xff && ((bytes[at + 1] ?? 0) & 0xf6) === 0xf0;
}

/** A DNG is a TIFF whose first directory holds DNGVersion (tag 50706). */
const DNG_VERSION_TAG = 50706;

function tiffByteOrder(bytes: Uint8Array): 'little' | 'big' | undefined {
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00])) return 'little';
  if (startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'big';
  return undefined;
}

/** False when IFD0 lies beyond the head: such a DNG is still a valid TIFF, and signs as one. */
function hasDngVersion(bytes: Uint8Array): boolean {
  const little = tiffByteOrder(bytes) === 'little';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  if (bytes.length < 8) return false;
  const ifd = view.getUint32(4, little);
  if (ifd + 2 > bytes.length) return false;
  const count = view.getUint16(ifd, little);
  for (let index = 0; index < count; index++) {
    const entry = ifd + 2 + index * 12;
    if (entry + 2 > bytes.length) return false;
    if (view.getUint16(entry, little) === DNG_VERSION_TAG) return true;
  }
  return false;
}

/**
 * An SVG document: after an optional byte-order mark and whitespace, any XML declaration,
 * comments, processing instructions and doctype, the first element is `<svg`.
 */
function isSvg(bytes: Uint8Array): boolean {
  let text = ascii(bytes, 0, bytes.length);
  if (text.startsWith('\xef\xbb\xbf')) text = text.slice(3);
  let at = 0;
  for (;;) {
    while (at < text.length && /\s/.test(text.charAt(at))) at++;
    if (text.startsWith('<?', at)) at = after(text, '?>', at);
    else if (text.startsWith('<!--', at)) at = after(text, '-->', at);
    else if (text.startsWith('<!DOCTYPE', at)) at = afterDoctype(text, at);
    else return /^<svg[\s>/]/.test(text.slice(at, at + 5));
    if (at < 0) return false;
  }
}

/** Index just past the next `end` from `from`, or -1 when the head ends first. */
function after(text: string, end: string, from: number): number {
  const found = text.indexOf(end, from);
  return found < 0 ? -1 : found + end.length;
}

/** A doctype may hold an internal subset in brackets, whose declarations contain `>`. */
function afterDoctype(text: string, from: number): number {
  const bracket = text.indexOf('[', from);
  const close = text.indexOf('>', from);
  if (close < 0) return -1;
  if (bracket < 0 || bracket > close) return close + 1;
  const subsetEnd = text.indexOf(']', bracket);
  return subsetEnd < 0 ? -1 : after(text, '>', subsetEnd);
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte);
}

function ascii(bytes: Uint8Array, offset: number, length: number): string {
  // In slices: spreading a whole head into one call's arguments risks the engine's argument limit.
  let text = '';
  const end = Math.min(bytes.length, offset + length);
  for (let start = offset; start < end; start += 1024) {
    text += String.fromCharCode(...bytes.subarray(start, Math.min(end, start + 1024)));
  }
  return text;
}

function readUint32(bytes: Uint8Array, offset: number): number {
  if (bytes.length < offset + 4) return 0;
  return new DataView(bytes.buffer, bytes.byteOffset + offset, 4).getUint32(0);
}
