import { describe, expect, it } from 'vitest';
import { id3TagLength, SNIFF_BYTES, sniffMediaFormat } from './media-sniff.ts';

const bytes = (...parts: Array<string | number[] | Uint8Array>) =>
  new Uint8Array(
    parts.flatMap((part) =>
      typeof part === 'string' ? [...Buffer.from(part, 'latin1')] : [...part],
    ),
  );
/** An ISO BMFF `ftyp` box with a major brand and compatible brands. */
const ftyp = (major: string, ...compatible: string[]) =>
  bytes([0, 0, 0, 16 + 4 * compatible.length], 'ftyp', major, [0, 0, 0, 0], ...compatible);
const riff = (form: string) => bytes('RIFF', [0x24, 0, 0, 0], form, 'fmt ');

/** A little-endian TIFF header whose IFD0 (at `ifdOffset`) lists `tags`. */
function tiff(tags: number[], ifdOffset = 8): Uint8Array {
  const out = new Uint8Array(ifdOffset + 2 + tags.length * 12 + 4);
  const view = new DataView(out.buffer);
  out.set([0x49, 0x49, 0x2a, 0x00]);
  view.setUint32(4, ifdOffset, true);
  view.setUint16(ifdOffset, tags.length, true);
  tags.forEach((tag, index) => {
    view.setUint16(ifdOffset + 2 + index * 12, tag, true);
  });
  return out;
}

const known = (head: Uint8Array, afterId3Tag?: Uint8Array) => {
  const sniffed = sniffMediaFormat(head, afterId3Tag);
  return sniffed.known ? sniffed.type.format : `unknown:${sniffed.format}`;
};

describe('sniffMediaFormat', () => {
  it.each([
    ['jpeg', bytes([0xff, 0xd8, 0xff, 0xe0])],
    ['png', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
    ['webp', riff('WEBP')],
    ['gif', bytes('GIF87a')],
    ['tiff', tiff([256, 257, 258])],
    ['tiff', bytes([0x4d, 0x4d, 0x00, 0x2a])],
    ['avif', ftyp('avif', 'mif1')],
    ['heic', ftyp('mif1', 'heic')],
    ['heif', ftyp('mif1', 'miaf')],
    ['mp4', ftyp('isom', 'isom', 'iso2', 'avc1', 'mp41')],
    ['mp4', ftyp('mp42', 'mp42', 'isom')],
    ['mp4', ftyp('avc1')],
    ['mp4', ftyp('dash', 'iso6')],
    ['mp4', ftyp('M4V ', 'M4V ', 'mp42')],
    ['mov', ftyp('qt  ', 'qt  ')],
    ['m4a', ftyp('M4A ', 'M4A ', 'mp42', 'isom')],
    ['m4a', ftyp('M4B ')],
    ['avi', riff('AVI ')],
    ['wav', riff('WAVE')],
    ['flac', bytes('fLaC', [0, 0, 0, 0x22])],
    // MPEG-1 layer III, 128 kbit/s, 44.1 kHz; and MPEG-2 layer III, the FF F3 a low-rate MP3 opens with
    ['mp3', bytes([0xff, 0xfb, 0x90, 0x64])],
    ['mp3', bytes([0xff, 0xf3, 0x40, 0xc4])],
    ['mp3', bytes('ID3', [4, 0, 0, 0, 0, 0, 0], [0xff, 0xfb, 0x90, 0x64])],
    // A tag longer than the head: taken to open an MP3.
    ['mp3', bytes('ID3', [3, 0, 0, 0, 0, 0x7f, 0x7f], [0, 0, 0, 0])],
    ['flac', bytes('ID3', [4, 0, 0, 0, 0, 0, 0], 'fLaC')],
    ['dng', tiff([256, 257, 50706, 50707])],
    ['jxl', bytes([0, 0, 0, 0x0c], 'JXL ', [0x0d, 0x0a, 0x87, 0x0a], ftyp('jxl '))],
    ['svg', bytes('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['svg', bytes('<svg>')],
    ['svg', bytes('\xef\xbb\xbf  \n<?xml version="1.0"?>\n<!-- drawn by hand -->\n<svg\n>')],
    [
      'svg',
      bytes(
        '<?xml version="1.0" standalone="no"?>',
        '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [ <!ENTITY ns "x"> ]>',
        '<?xml-stylesheet href="a.css"?><svg width="1">',
      ),
    ],
  ])('recognises %s', (format, head) => {
    expect(known(head)).toBe(format);
  });

  it.each([
    ['pdf', bytes('%PDF-1.7')],
    ['bmp', bytes('BM', [0, 0])],
    ['psd', bytes('8BPS')],
    ['jxl-codestream', bytes([0xff, 0x0a, 0xfa])],
    ['iso-bmff/crx', ftyp('crx ')],
    ['iso-bmff/3gp4', ftyp('3gp4')],
    ['riff/CDXA', riff('CDXA')],
    ['aac', bytes('ID3', [4, 0, 0, 0, 0, 0, 0], [0xff, 0xf1, 0x50, 0x80])],
    // AAC ADTS and a JPEG's SOI are not MPEG layer III frames.
    ['unknown', bytes([0xff, 0xf1, 0x50, 0x80])],
    ['unknown', bytes([0xff, 0xd8, 0x00])],
    // Layer III sync with a reserved version, a bad bitrate, a reserved sample rate.
    ['unknown', bytes([0xff, 0xeb, 0x90, 0x64])],
    ['unknown', bytes([0xff, 0xfb, 0xf0, 0x64])],
    ['unknown', bytes([0xff, 0xfb, 0x9c, 0x64])],
    ['unknown', bytes('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">')],
    ['unknown', bytes('<!-- <svg> in a comment only --><html>')],
    ['unknown', bytes('<?xml version="1.0"?><!-- never closed <svg>')],
    ['unknown', bytes('<svgfoo>')],
    ['unknown', bytes('hello, world')],
    ['unknown', new Uint8Array()],
  ])('names %s and does not accept it', (format, head) => {
    expect(sniffMediaFormat(head)).toEqual({ known: false, format });
  });

  it('finds <svg> after a prolog that fills most of SNIFF_BYTES, not after it', () => {
    const comment = (length: number) => `<!--${'x'.repeat(length)}-->`;
    expect(known(bytes(comment(SNIFF_BYTES - 20), '<svg>'))).toBe('svg');
    expect(known(bytes(comment(SNIFF_BYTES), '<svg>'))).toBe('unknown:unknown');
  });

  it('tells a FLAC from an MP3 by what follows an ID3 tag longer than the head', () => {
    // A 20 000-byte tag, as C2PA signing leaves on a FLAC: a 10-byte header, then a body whose
    // syncsafe size 0x01 0x1c 0x16 is 19 990.
    const head = bytes('ID3', [4, 0, 0, 0, 0x01, 0x1c, 0x16], new Uint8Array(100));
    expect(id3TagLength(head)).toBe(20_000);
    expect(known(head)).toBe('mp3');
    expect(known(head, bytes('fLaC'))).toBe('flac');
    expect(known(head, bytes([0xff, 0xfb, 0x90, 0x64]))).toBe('mp3');
    // Given the whole file, the sniffer looks past SNIFF_BYTES itself.
    const whole = new Uint8Array(20_004);
    whole.set(head.subarray(0, 10));
    whole.set(bytes('fLaC'), 20_000);
    expect(known(whole)).toBe('flac');
    expect(id3TagLength(bytes('fLaC'))).toBeUndefined();
  });

  it('takes a DNG whose first directory lies beyond the head for the TIFF it also is', () => {
    const far = tiff([50706], SNIFF_BYTES + 8);
    expect(known(far)).toBe('tiff');
    expect(known(far.subarray(0, 64))).toBe('tiff');
  });

  it('reads no further than the bytes it has, whatever a forged size says', () => {
    const forgedBox = ftyp('mif1', 'miaf');
    forgedBox.set([0x7f, 0xff, 0xff, 0xff], 0);
    expect(known(forgedBox)).toBe('heif');
    const forgedIfd = tiff([256]);
    forgedIfd.set([0xff, 0xff], 8); // 65535 entries
    expect(known(forgedIfd)).toBe('tiff');
  });
});
