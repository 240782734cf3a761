// Where a file keeps its C2PA manifest store, by container: the store's bytes, or null when the
// container holds none or is one this reader has no locator for (SVG, JPEG XL, RIFF audio and
// video, ID3-tagged audio). A `.c2pa` sidecar is a store already.
import { sniffMediaFormat } from '@hallmark/schemas';
import { bmffStore } from './bmff-store.ts';
import { startsWith } from './bytes.ts';
import { gifStore, pngStore, webpStore } from './chunk-stores.ts';
import { jpegJumbfBoxes } from './jpeg-store.ts';
import { tiffStore } from './tiff-store.ts';

/** A superbox whose description box has the C2PA store's content type (`c2pa` + ISO suffix). */
const STORE_DESCRIPTION = [
  0x6a, 0x75, 0x6d, 0x64, 0x63, 0x32, 0x70, 0x61, 0x00, 0x11, 0x00, 0x10, 0x80, 0x00, 0x00, 0xaa,
  0x00, 0x38, 0x9b, 0x71,
];

/** Whether the bytes are a manifest store themselves (`application/c2pa`). */
export function isManifestStore(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 28 &&
    startsWith(bytes, 4, [0x6a, 0x75, 0x6d, 0x62]) && // 'jumb'
    startsWith(bytes, 12, STORE_DESCRIPTION)
  );
}

/**
 * @throws MalformedManifestStoreError when the container's structure does not hold together
 *   on the way to the store
 */
export function embeddedManifestStore(bytes: Uint8Array): Uint8Array | null {
  const sniffed = sniffMediaFormat(bytes);
  if (!sniffed.known) return null;
  switch (sniffed.type.format) {
    case 'jpeg':
      return jpegJumbfBoxes(bytes).find(isManifestStore) ?? null;
    case 'png':
      return pngStore(bytes);
    case 'webp':
      return webpStore(bytes);
    case 'gif':
      return gifStore(bytes);
    // A DNG is a TIFF, and keeps its store in the same IFD0 tag.
    case 'tiff':
    case 'dng':
      return tiffStore(bytes);
    // Stills and movies alike keep the store in a top-level `uuid` box.
    case 'avif':
    case 'heic':
    case 'heif':
    case 'mp4':
    case 'mov':
    case 'm4a':
      return bmffStore(bytes);
    default:
      return null;
  }
}
