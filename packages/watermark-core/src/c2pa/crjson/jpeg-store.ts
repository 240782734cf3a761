// JPEG carries a manifest store in APP11 segments as a JPEG XT box (ISO/IEC 18477-3): each
// segment is 'JP', a box instance number, a packet sequence number, then the box header again and
// the next part of the box. A store larger than one segment (64 KiB) spans several.
import { fourCc, slice, startsWith, uint8, uint16, uint32 } from './bytes.ts';
import { MalformedManifestStoreError } from './errors.ts';

const APP11 = 0xeb;
const START_OF_SCAN = 0xda;
const END_OF_IMAGE = 0xd9;
const COMMON_IDENTIFIER = [0x4a, 0x50]; // 'JP'

interface Packet {
  readonly sequence: number;
  readonly data: Uint8Array;
}

/** The JUMBF boxes of the APP11 segments (one per box instance), in the order they begin. */
export function jpegJumbfBoxes(bytes: Uint8Array): Uint8Array[] {
  const instances = new Map<number, Packet[]>();
  let at = 2; // after SOI
  while (at < bytes.length) {
    if (uint8(bytes, at, 'a JPEG marker') !== 0xff) {
      throw new MalformedManifestStoreError('a JPEG segment does not start with a marker');
    }
    const marker = uint8(bytes, at + 1, 'a JPEG marker');
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === START_OF_SCAN || marker === END_OF_IMAGE) break;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2; // markers without a length
      continue;
    }
    const length = uint16(bytes, at + 2, 'a JPEG segment');
    const segment = slice(bytes, at + 4, length - 2, 'a JPEG segment');
    if (marker === APP11 && startsWith(segment, 0, COMMON_IDENTIFIER)) {
      const instance = uint16(segment, 2, 'an APP11 segment');
      const packets = instances.get(instance) ?? [];
      packets.push({ sequence: uint32(segment, 4, 'an APP11 segment'), data: segment.subarray(8) });
      instances.set(instance, packets);
    }
    at += 2 + length;
  }
  return [...instances.values()].map(reassemble);
}

/** The first packet holds the box from its header on; the others repeat the header, then go on. */
function reassemble(packets: Packet[]): Uint8Array {
  const ordered = [...packets].sort((a, b) => a.sequence - b.sequence);
  const parts = ordered.map((packet, index) => {
    if (index === 0) return packet.data;
    const extended = uint32(packet.data, 0, 'an APP11 box header') === 1;
    fourCc(packet.data, 4, 'an APP11 box header');
    return packet.data.subarray(extended ? 16 : 8);
  });
  return Buffer.concat(parts);
}
