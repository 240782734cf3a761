// ISO BMFF (AVIF, HEIF) carries the manifest store in a top-level `uuid` box with C2PA's UUID:
// version and flags, a NUL-terminated purpose (`manifest`), an 8-byte offset, then the store.
import { fourCc, slice, startsWith, uint32, uint64 } from './bytes.ts';
import { MalformedManifestStoreError } from './errors.ts';

const C2PA_UUID = [
  0xd8, 0xfe, 0xc3, 0xd6, 0x1b, 0x0e, 0x48, 0x3c, 0x92, 0x97, 0x58, 0x28, 0x87, 0x7e, 0xc4, 0x81,
];
const MANIFEST_PURPOSE = 'manifest';

export function bmffStore(bytes: Uint8Array): Uint8Array | null {
  let at = 0;
  while (at + 8 <= bytes.length) {
    let size = uint32(bytes, at, 'a BMFF box');
    const type = fourCc(bytes, at + 4, 'a BMFF box');
    let header = 8;
    if (size === 1) {
      size = uint64(bytes, at + 8, 'a BMFF box');
      header = 16;
    } else if (size === 0) {
      size = bytes.length - at;
    }
    if (size < header)
      throw new MalformedManifestStoreError(`a ${type} box is shorter than its header`);
    const body = slice(bytes, at + header, size - header, `a ${type} box`);
    if (type === 'uuid' && startsWith(body, 0, C2PA_UUID)) {
      const store = manifestOf(body.subarray(16));
      if (store !== null) return store;
    }
    at += size;
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
