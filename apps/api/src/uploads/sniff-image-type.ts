/**
 * The image type the bytes themselves announce (magic bytes), whatever the client declared.
 * Returns null for anything that is not one of the formats named here.
 */
export function sniffImageType(head: Uint8Array): string | null {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 8 && b.subarray(0, 8).equals(PNG)) return 'image/png';
  if (
    b.length >= 12 &&
    b.toString('latin1', 0, 4) === 'RIFF' &&
    b.toString('latin1', 8, 12) === 'WEBP'
  ) {
    return 'image/webp';
  }
  if (b.length >= 4 && (b.subarray(0, 4).equals(TIFF_LE) || b.subarray(0, 4).equals(TIFF_BE))) {
    return 'image/tiff';
  }
  return isoBmffImageType(b);
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const TIFF_LE = Buffer.from([0x49, 0x49, 0x2a, 0x00]);
const TIFF_BE = Buffer.from([0x4d, 0x4d, 0x00, 0x2a]);

/** AVIF and HEIC are ISO-BMFF files: an `ftyp` box whose brands name the codec. */
function isoBmffImageType(b: Buffer): string | null {
  if (b.length < 16 || b.toString('latin1', 4, 8) !== 'ftyp') return null;
  const boxSize = Math.min(b.readUInt32BE(0), b.length);
  const brands = [b.toString('latin1', 8, 12)];
  for (let offset = 16; offset + 4 <= boxSize; offset += 4)
    brands.push(b.toString('latin1', offset, offset + 4));
  if (brands.some((brand) => brand === 'avif' || brand === 'avis')) return 'image/avif';
  if (brands.some((brand) => ['heic', 'heix', 'heim', 'heis', 'mif1'].includes(brand)))
    return 'image/heic';
  return null;
}
