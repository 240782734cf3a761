// TIFF carries the manifest store as the value of tag 52545 (0xCD41) in an image file directory.
import { slice, uint16, uint32 } from './bytes.ts';

const C2PA_TAG = 0xcd41;
const CLASSIC_TIFF = 42;
/** Pages a file may chain before the walk stops: it also ends directory loops. */
const MAX_DIRECTORIES = 64;

/** Null when no directory holds the tag (BigTIFF is not read here). */
export function tiffStore(bytes: Uint8Array): Uint8Array | null {
  const little = bytes[0] === 0x49; // 'II'
  if (uint16(bytes, 2, 'the TIFF header', little) !== CLASSIC_TIFF) return null;
  let directory = uint32(bytes, 4, 'the TIFF header', little);
  for (let page = 0; page < MAX_DIRECTORIES && directory !== 0; page += 1) {
    const entries = uint16(bytes, directory, 'a TIFF directory', little);
    for (let index = 0; index < entries; index += 1) {
      const entry = directory + 2 + 12 * index;
      if (uint16(bytes, entry, 'a TIFF entry', little) !== C2PA_TAG) continue;
      const count = uint32(bytes, entry + 4, 'a TIFF entry', little);
      const offset = count <= 4 ? entry + 8 : uint32(bytes, entry + 8, 'a TIFF entry', little);
      return slice(bytes, offset, count, 'the C2PA tag');
    }
    directory = uint32(bytes, directory + 2 + 12 * entries, 'a TIFF directory', little);
  }
  return null;
}
