import { describe, expect, it } from 'vitest';
import { sniffImageFormat } from './image-format.ts';

const bytes = (...parts: Array<string | number[]>) =>
  new Uint8Array(
    parts.flatMap((part) => (typeof part === 'string' ? [...Buffer.from(part, 'latin1')] : part)),
  );
/** An ISO-BMFF `ftyp` box with a major brand and compatible brands. */
const ftyp = (major: string, ...compatible: string[]) => {
  const size = 16 + 4 * compatible.length;
  return bytes([0, 0, 0, size], 'ftyp', major, [0, 0, 0, 0], ...compatible);
};

describe('sniffImageFormat', () => {
  it.each([
    ['jpeg', 'image/jpeg', bytes([0xff, 0xd8, 0xff, 0xe0])],
    ['png', 'image/png', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
    ['webp', 'image/webp', bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 ')],
    ['gif', 'image/gif', bytes('GIF89a')],
    ['tiff', 'image/tiff', bytes([0x49, 0x49, 0x2a, 0x00])],
    ['tiff', 'image/tiff', bytes([0x4d, 0x4d, 0x00, 0x2a])],
    ['avif', 'image/avif', ftyp('avif', 'mif1')],
    ['avif', 'image/avif', ftyp('mif1', 'miaf', 'avif')],
    ['heic', 'image/heic', ftyp('heic', 'mif1')],
    ['heif', 'image/heif', ftyp('mif1', 'miaf')],
  ])('recognises %s (%s) by its first bytes', (format, mimeType, head) => {
    expect(sniffImageFormat(head)).toEqual({ image: true, format, mimeType });
  });

  it.each([
    ['mp4', ftyp('isom', 'mp41')],
    ['quicktime', ftyp('qt  ')],
    ['pdf', bytes('%PDF-1.7')],
    ['bmp', bytes('BM', [0, 0])],
    ['svg', bytes('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg">')],
    ['unknown', bytes('hello, world')],
    ['unknown', new Uint8Array()],
  ])('names %s as not an image', (format, head) => {
    expect(sniffImageFormat(head)).toEqual({ image: false, format });
  });

  it('reads no further than the bytes it has, whatever a forged box size says', () => {
    const forged = ftyp('mif1', 'miaf');
    forged.set([0x7f, 0xff, 0xff, 0xff], 0);
    expect(sniffImageFormat(forged)).toEqual({
      image: true,
      format: 'heif',
      mimeType: 'image/heif',
    });
  });
});
