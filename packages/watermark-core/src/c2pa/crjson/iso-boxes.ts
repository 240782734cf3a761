// The box format JUMBF shares with ISO BMFF: a 32-bit size (1: a 64-bit size follows; 0: the box
// runs to the end), a four-letter type, then the payload.
import { fourCc, slice, uint32, uint64 } from './bytes.ts';
import { MalformedManifestStoreError } from './errors.ts';

export interface IsoBox {
  readonly type: string;
  readonly payload: Uint8Array;
}

/** The boxes of `bytes` one after the other; each step moves on by at least a header. */
export function* isoBoxes(bytes: Uint8Array): Generator<IsoBox> {
  let at = 0;
  while (at < bytes.length) {
    let size = uint32(bytes, at, 'a box header');
    const type = fourCc(bytes, at + 4, 'a box header');
    let header = 8;
    if (size === 1) {
      size = uint64(bytes, at + 8, 'a box length');
      header = 16;
    } else if (size === 0) {
      size = bytes.length - at;
    }
    if (size < header) {
      throw new MalformedManifestStoreError(`a ${type} box is shorter than its header`);
    }
    yield { type, payload: slice(bytes, at + header, size - header, `a ${type} box`) };
    at += size;
  }
}
