// ISO BMFF (AVIF, HEIF) carries the manifest store in a top-level `uuid` box with C2PA's UUID:
// version and flags, a NUL-terminated purpose (`manifest`), an 8-byte offset, then the store.
import { slice, startsWith } from './bytes.ts';
import { MalformedManifestStoreError } from './errors.ts';
import { isoBoxes } from './iso-boxes.ts';

const C2PA_UUID = [
  0xd8, 0xfe, 0xc3, 0xd6, 0x1b, 0x0e, 0x48, 0x3c, 0x92, 0x97, 0x58, 0x28, 0x87, 0x7e, 0xc4, 0x81,
];
const MANIFEST_PURPOSE = 'manifest';

export function bmffStore(bytes: Uint8Array): Uint8Array | null {
  for (const box of isoBoxes(bytes)) {
    if (box.type !== 'uuid' || !startsWith(box.payload, 0, C2PA_UUID)) continue;
    const store = manifestOf(box.payload.subarray(16));
    if (store !== null) return store;
  }
  return null;
}

function manifestOf(content: Uint8Array): Uint8Array | null {
  const purposeEnd = content.indexOf(0, 4);
  if (purposeEnd === -1) throw new MalformedManifestStoreError('a C2PA box has no purpose');
  const purpose = new TextDecoder().decode(content.subarray(4, purposeEnd));
  if (purpose !== MANIFEST_PURPOSE) return null;
  const start = purposeEnd + 1 + 8;
  return slice(content, start, content.length - start, 'the C2PA box');
}
