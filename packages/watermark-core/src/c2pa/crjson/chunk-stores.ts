// Containers made of chunks that carry the manifest store whole: PNG's `caBX` chunk, WebP's RIFF
// `C2PA` chunk, GIF's `C2PA_GIF` application extension (its data in sub-blocks of up to 255 bytes).
import { fourCc, slice, startsWith, uint8, uint32 } from './bytes.ts';
import { MalformedManifestStoreError } from './errors.ts';

const PNG_SIGNATURE_LENGTH = 8;

export function pngStore(bytes: Uint8Array): Uint8Array | null {
  let at = PNG_SIGNATURE_LENGTH;
  while (at < bytes.length) {
    const length = uint32(bytes, at, 'a PNG chunk');
    const type = fourCc(bytes, at + 4, 'a PNG chunk');
    const data = slice(bytes, at + 8, length, `the PNG ${type} chunk`);
    if (type === 'caBX') return data;
    if (type === 'IEND') break;
    at += 12 + length; // length, type, data, CRC
  }
  return null;
}

const RIFF_HEADER_LENGTH = 12; // 'RIFF', size, 'WEBP'

export function webpStore(bytes: Uint8Array): Uint8Array | null {
  const riffEnd = Math.min(bytes.length, 8 + uint32(bytes, 4, 'the RIFF header', true));
  let at = RIFF_HEADER_LENGTH;
  while (at + 8 <= riffEnd) {
    const type = fourCc(bytes, at, 'a RIFF chunk');
    const length = uint32(bytes, at + 4, 'a RIFF chunk', true);
    const data = slice(bytes, at + 8, length, `the RIFF ${type} chunk`);
    if (type === 'C2PA') return data;
    at += 8 + length + (length % 2); // chunks are padded to an even length
  }
  return null;
}

const GIF_EXTENSION = 0x21;
const GIF_IMAGE = 0x2c;
const GIF_TRAILER = 0x3b;
const GIF_APPLICATION = 0xff;
/** 'C2PA_GIF' and its authentication code 01 00 00, after the block size 11. */
const C2PA_APPLICATION = [0x0b, 0x43, 0x32, 0x50, 0x41, 0x5f, 0x47, 0x49, 0x46, 0x01, 0x00, 0x00];

export function gifStore(bytes: Uint8Array): Uint8Array | null {
  const screenFlags = uint8(bytes, 10, 'the GIF screen descriptor');
  let at = 13 + colourTableLength(screenFlags);
  while (at < bytes.length) {
    const introducer = uint8(bytes, at, 'a GIF block');
    if (introducer === GIF_TRAILER) break;
    if (introducer === GIF_EXTENSION) {
      const label = uint8(bytes, at + 1, 'a GIF extension');
      const isC2pa = label === GIF_APPLICATION && startsWith(bytes, at + 2, C2PA_APPLICATION);
      const start = at + 2 + (isC2pa ? C2PA_APPLICATION.length : 0);
      const { data, end } = subBlocks(bytes, start, isC2pa);
      if (isC2pa) return data;
      at = end;
    } else if (introducer === GIF_IMAGE) {
      const flags = uint8(bytes, at + 9, 'a GIF image descriptor');
      // Descriptor, local colour table, LZW code size, then the image data's sub-blocks.
      at = subBlocks(bytes, at + 10 + colourTableLength(flags) + 1, false).end;
    } else {
      throw new MalformedManifestStoreError('an unknown GIF block');
    }
  }
  return null;
}

function colourTableLength(flags: number): number {
  return (flags & 0x80) === 0 ? 0 : 3 * 2 ** ((flags & 0x07) + 1);
}

/** Sub-blocks until the empty one: their data joined (when kept), and where the next block begins. */
function subBlocks(
  bytes: Uint8Array,
  start: number,
  keep: boolean,
): { data: Uint8Array; end: number } {
  const parts: Uint8Array[] = [];
  let at = start;
  for (;;) {
    const size = uint8(bytes, at, 'a GIF sub-block');
    if (size === 0) return { data: Buffer.concat(parts), end: at + 1 };
    const data = slice(bytes, at + 1, size, 'a GIF sub-block');
    if (keep) parts.push(data);
    at += 1 + size;
  }
}
