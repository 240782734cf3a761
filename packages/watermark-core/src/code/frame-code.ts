// The mark's error-correcting frame: 64 payload bits and a 48-bit check value (the first 48 bits of
// the payload's SHA-256; 112 bits), scrambled with a fixed pseudo-random sequence and encoded with
// a polar code of length 1024 punctured to 768 bits, one per message chip of the tile
// (polar-code.ts). The detector decodes soft chip correlations with a successive-cancellation
// list decoder and accepts a frame only when its check matches: for a frame decoded from noise
// that happens with probability 2^-48, which leaves room for the many places and scales the
// detector searches while keeping false detections under 1e-9 per image (see detect/detect.ts).
import { createHash } from 'node:crypto';
import {
  BLOCK,
  INFORMATION_BITS,
  polarCode,
  polarTransform,
  SENT_BITS,
  STAGES,
} from './polar-code.ts';
import { PolarListDecoder } from './polar-list-decoder.ts';
import { Prng } from './prng.ts';

export const PAYLOAD_BITS = 64;
/** Bits of the check value: a random frame passes it with probability 2^-CHECK_BITS. */
export const CHECK_BITS = 48;
export const INFO_BITS = PAYLOAD_BITS + CHECK_BITS;
export const CODED_BITS = SENT_BITS;
if (INFO_BITS !== INFORMATION_BITS) throw new Error('the polar code carries the whole frame');

// Scrambling keeps a flat or blank image (all-zero soft values) from decoding to the all-zero
// frame, and makes a frame decoded from noise a random word to the check.
const scramble = (() => {
  const prng = new Prng('hallmark.invisible.v3/scramble');
  const bits = new Uint8Array(INFO_BITS);
  for (let i = 0; i < INFO_BITS; i++) bits[i] = prng.nextUint32() & 1;
  return bits;
})();

/**
 * The check value of a payload (its 8 bytes, big-endian): the first CHECK_BITS bits of their
 * SHA-256. Any fixed function of the payload bounds false detections the same way; a hash also
 * makes a wrongly decoded payload as unlikely to pass as a random word.
 */
export function frameCheck(payloadBytes: Uint8Array): Uint8Array {
  return createHash('sha256')
    .update(payloadBytes)
    .digest()
    .subarray(0, CHECK_BITS / 8);
}

function infoBits(payload: bigint): Uint8Array {
  const bytes = new Uint8Array(INFO_BITS / 8);
  for (let i = 0; i < 8; i++) bytes[i] = Number((payload >> BigInt(56 - 8 * i)) & 0xffn);
  bytes.set(frameCheck(bytes.subarray(0, 8)), 8);
  const bits = new Uint8Array(INFO_BITS);
  for (let i = 0; i < INFO_BITS; i++) {
    bits[i] = (((bytes[i >> 3] as number) >> (7 - (i & 7))) & 1) ^ (scramble[i] as number);
  }
  return bits;
}

/** The 768 coded bits (0/1) that carry `payload`. */
export function encodeFrame(payload: bigint): Uint8Array {
  return encodeInfo(infoBits(payload));
}

function encodeInfo(info: Uint8Array): Uint8Array {
  const u = new Uint8Array(BLOCK);
  polarCode.informationPositions.forEach((position, k) => {
    u[position] = info[k] as number;
  });
  const x = polarTransform(u);
  return Uint8Array.from(polarCode.sent, (position) => x[position] as number);
}

export interface DecodedFrame {
  /** The payload when the check value matched, otherwise null. */
  readonly payload: bigint | null;
  /**
   * Normalised correlation between the soft input and the re-encoded best codeword, in [-1, 1]:
   * near 1 for a clean mark, 0.39-0.43 for Gaussian noise (the decoder picks the best of its list).
   */
  readonly correlation: number;
}

/** Paths kept by the list decoder; each is checked against the check value. */
export const LIST_SIZE = 32;
/** Longest list a decode may keep (memory: about 10 MB at 1,024 paths). */
const MAX_LIST = 4096;

const decoder = new PolarListDecoder(STAGES, polarCode.information);

/**
 * Successive-cancellation list decoding (the `list` most likely frames, aided by the check value:
 * the most likely that passes it wins). `soft[i] > 0` votes for coded bit i being 0. Returns the
 * payload only when a path's check matches, so at most `list` frames are checked.
 */
export function decodeFrame(soft: Float32Array | Float64Array, list = LIST_SIZE): DecodedFrame {
  if (soft.length !== CODED_BITS) throw new RangeError(`expected ${CODED_BITS} soft values`);
  if (list < 1 || list > MAX_LIST) throw new RangeError(`the list holds 1 to ${MAX_LIST} paths`);
  const channel = new Float64Array(BLOCK);
  polarCode.decoderOrder.forEach((at, k) => {
    channel[at] = soft[k] as number;
  });
  const { paths } = decoder.decode(channel, list);
  const [best] = paths;
  for (const info of paths) {
    const payload = checkedPayload(info);
    if (payload !== null) {
      return { payload, correlation: codewordCorrelation(soft, encodeInfo(info)) };
    }
  }
  return {
    payload: null,
    correlation: best === undefined ? 0 : codewordCorrelation(soft, encodeInfo(best)),
  };
}

/** The payload of descrambled info bits whose check value matches, otherwise null. */
function checkedPayload(info: Uint8Array): bigint | null {
  const bytes = new Uint8Array(INFO_BITS / 8);
  for (let i = 0; i < INFO_BITS; i++) {
    bytes[i >> 3] =
      (bytes[i >> 3] as number) |
      (((info[i] as number) ^ (scramble[i] as number)) << (7 - (i & 7)));
  }
  const check = frameCheck(bytes.subarray(0, 8));
  for (let i = 0; i < check.length; i++) if (check[i] !== bytes[8 + i]) return null;
  let payload = 0n;
  for (let i = 0; i < 8; i++) payload = (payload << 8n) | BigInt(bytes[i] as number);
  return payload;
}

function codewordCorrelation(soft: Float32Array | Float64Array, coded: Uint8Array): number {
  let dot = 0;
  let energy = 0;
  for (let i = 0; i < CODED_BITS; i++) {
    const y = soft[i] as number;
    dot += coded[i] ? -y : y;
    energy += y * y;
  }
  return energy > 0 ? dot / Math.sqrt(energy * CODED_BITS) : 0;
}
