import { describe, expect, it } from 'vitest';
import { detectC2paFormat, UnsupportedFormatError } from '../src/c2pa/index.ts';
import { c2paFixture, photo } from './c2pa-fixtures.ts';

/** An ISO BMFF `ftyp` box with a major brand and compatible brands. */
function ftyp(major: string, ...compatible: string[]): Buffer {
  const body = Buffer.from(`ftyp${major}\0\0\0\0${compatible.join('')}`, 'latin1');
  const size = Buffer.alloc(4);
  size.writeUInt32BE(body.length + 4);
  return Buffer.concat([size, body, Buffer.alloc(16)]);
}

describe('detectC2paFormat (by magic bytes, not by name)', () => {
  it.each([
    ['jpeg', () => photo('fig-0.25mp.jpg')],
    ['png', () => c2paFixture('libpng-test.png')],
    ['webp', () => c2paFixture('sample1.webp')],
  ] as const)('recognises a real %s file', async (format, load) => {
    expect(detectC2paFormat(await load())).toBe(format);
  });

  it.each([
    ['tiff', Buffer.from([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0])],
    ['tiff', Buffer.from([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8])],
    ['gif', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')],
    ['avif', ftyp('avif', 'mif1', 'miaf')],
    ['avif', ftyp('mif1', 'mif1', 'avif')],
    ['heic', ftyp('heic', 'mif1', 'heic')],
    ['heic', ftyp('mif1', 'mif1', 'heix')],
    ['heif', ftyp('mif1', 'mif1')],
    ['mp4', ftyp('isom', 'isom', 'mp41')],
    ['mov', ftyp('qt  ', 'qt  ')],
    ['m4a', ftyp('M4A ', 'M4A ', 'isom')],
    ['avi', Buffer.from('RIFF\x04\0\0\0AVI LIST', 'latin1')],
    ['wav', Buffer.from('RIFF\x04\0\0\0WAVEfmt ', 'latin1')],
    ['flac', Buffer.from('fLaC\0\0\0\x22', 'latin1')],
    ['mp3', Buffer.from([0xff, 0xfb, 0x90, 0x64])],
    ['svg', Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['jxl', Buffer.from([0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a])],
  ])('recognises %s', (format, bytes) => {
    expect(detectC2paFormat(bytes)).toBe(format);
  });

  it.each([
    ['iso-bmff/crx', ftyp('crx ', 'crx ')],
    // c2pa-node 0.8.0 signs JPEG XL only in its box container.
    ['jxl-codestream', Buffer.from([0xff, 0x0a, 0, 0])],
    ['pdf', Buffer.from('%PDF-1.7', 'latin1')],
    ['psd', Buffer.from('8BPS\0\x01', 'latin1')],
    ['ico', Buffer.from([0, 0, 1, 0, 1, 0])],
    ['unknown', Buffer.alloc(0)],
  ])('refuses %s, naming it', (format, bytes) => {
    const attempt = () => detectC2paFormat(bytes);
    expect(attempt).toThrow(UnsupportedFormatError);
    expect(attempt).toThrow(expect.objectContaining({ code: 'unsupported_format', format }));
  });
});
