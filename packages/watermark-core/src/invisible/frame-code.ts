// The mark's error-correcting frame: 64 payload bits and a CRC-32 of them (96 bits), scrambled
// with a fixed pseudo-random sequence and encoded with a rate-1/3, constraint-length-7
// convolutional code (generators 133, 171, 165 octal, zero-terminated: 306 coded bits). The
// detector decodes soft chip correlations with the Viterbi algorithm and accepts a frame only when
// its CRC matches: for a frame decoded from noise that happens with probability 2^-32.
import { crc32 } from 'node:zlib';
import { Prng } from './prng.ts';

export const PAYLOAD_BITS = 64;
const CRC_BITS = 32;
export const INFO_BITS = PAYLOAD_BITS + CRC_BITS;
const CONSTRAINT = 7;
const TAIL_BITS = CONSTRAINT - 1;
const GENERATORS = [0o133, 0o171, 0o165] as const;
const STATES = 1 << TAIL_BITS;
export const CODED_BITS = (INFO_BITS + TAIL_BITS) * GENERATORS.length;

// Scrambling keeps a flat or blank image (all-zero soft values) from decoding to the all-zero
// frame, whose CRC would otherwise be trivially consistent.
const scramble = (() => {
  const prng = new Prng('hallmark.invisible.v1/scramble');
  const bits = new Uint8Array(INFO_BITS);
  for (let i = 0; i < INFO_BITS; i++) bits[i] = prng.nextUint32() & 1;
  return bits;
})();

/** CRC-32 (IEEE 802.3, as in zlib and PNG): zlib's own. */
export { crc32 };

function parity(x: number): number {
  let v = x;
  v ^= v >>> 4;
  v ^= v >>> 2;
  v ^= v >>> 1;
  return v & 1;
}

// outputs[(state << 1) | input] packs the three coded bits of one trellis branch.
const branchOutputs = (() => {
  const out = new Uint8Array(STATES * 2);
  for (let state = 0; state < STATES; state++) {
    for (let input = 0; input < 2; input++) {
      const register = (input << TAIL_BITS) | state;
      let bits = 0;
      GENERATORS.forEach((g, k) => {
        bits |= parity(register & g) << k;
      });
      out[(state << 1) | input] = bits;
    }
  }
  return out;
})();

function infoBits(payload: bigint): Uint8Array {
  const bytes = new Uint8Array(12);
  for (let i = 0; i < 8; i++) bytes[i] = Number((payload >> BigInt(56 - 8 * i)) & 0xffn);
  const crc = crc32(bytes.subarray(0, 8));
  bytes[8] = crc >>> 24;
  bytes[9] = (crc >>> 16) & 0xff;
  bytes[10] = (crc >>> 8) & 0xff;
  bytes[11] = crc & 0xff;
  const bits = new Uint8Array(INFO_BITS);
  for (let i = 0; i < INFO_BITS; i++) {
    bits[i] = (((bytes[i >> 3] as number) >> (7 - (i & 7))) & 1) ^ (scramble[i] as number);
  }
  return bits;
}

/** The 306 coded bits (0/1) that carry `payload`. */
export function encodeFrame(payload: bigint): Uint8Array {
  return convolve(infoBits(payload));
}

function convolve(info: Uint8Array): Uint8Array {
  const coded = new Uint8Array(CODED_BITS);
  let state = 0;
  for (let t = 0; t < INFO_BITS + TAIL_BITS; t++) {
    const input = t < INFO_BITS ? (info[t] as number) : 0;
    const bits = branchOutputs[(state << 1) | input] as number;
    for (let k = 0; k < GENERATORS.length; k++) coded[t * GENERATORS.length + k] = (bits >> k) & 1;
    state = ((input << TAIL_BITS) | state) >> 1;
  }
  return coded;
}

export interface DecodedFrame {
  /** The payload when the CRC matched, otherwise null. */
  readonly payload: bigint | null;
  /**
   * Normalised correlation between the soft input and the re-encoded best codeword, in [-1, 1]:
   * near 1 for a clean mark, around 0.3-0.5 for noise (the decoder picks the best of 2^96).
   */
  readonly correlation: number;
}

/** Paths kept per trellis state by the list Viterbi decoder; each is checked against the CRC. */
export const LIST_SIZE = 32;

/**
 * Soft-decision list Viterbi decoding (the LIST_SIZE best paths through the trellis, aided by the
 * CRC: the best path that passes it wins). `soft[i] > 0` votes for coded bit i being 0. Returns
 * the payload only when a path's CRC-32 matches, so at most LIST_SIZE frames are CRC-checked.
 */
export function decodeFrame(soft: Float32Array | Float64Array): DecodedFrame {
  if (soft.length !== CODED_BITS) throw new RangeError(`expected ${CODED_BITS} soft values`);
  const steps = INFO_BITS + TAIL_BITS;
  const n = GENERATORS.length;
  const list = LIST_SIZE;
  let metric = new Float64Array(STATES * list).fill(-Infinity);
  let nextMetric = new Float64Array(STATES * list);
  metric[0] = 0;
  // back[(t * STATES + state) * list + rank] = (predecessor rank << 1) | predecessor's dropped bit.
  const back = new Uint16Array(steps * STATES * list);
  for (let t = 0; t < steps; t++) {
    nextMetric.fill(-Infinity);
    const base = t * n;
    const y0 = soft[base] as number;
    const y1 = soft[base + 1] as number;
    const y2 = soft[base + 2] as number;
    const branch = (state: number, input: number) => {
      const bits = branchOutputs[(state << 1) | input] as number;
      return (bits & 1 ? -y0 : y0) + (bits & 2 ? -y1 : y1) + (bits & 4 ? -y2 : y2);
    };
    for (let next = 0; next < STATES; next++) {
      const input = next >> (TAIL_BITS - 1);
      if (t >= INFO_BITS && input === 1) continue;
      // The two predecessors differ in the bit the register drops; each list is sorted, so the
      // best `list` extensions are a merge of the two.
      const p0 = (next << 1) & (STATES - 1);
      const p1 = p0 | 1;
      const b0 = branch(p0, input);
      const b1 = branch(p1, input);
      let i0 = 0;
      let i1 = 0;
      const out = next * list;
      const backBase = (t * STATES + next) * list;
      for (let k = 0; k < list; k++) {
        const m0 = i0 < list ? (metric[p0 * list + i0] as number) + b0 : -Infinity;
        const m1 = i1 < list ? (metric[p1 * list + i1] as number) + b1 : -Infinity;
        if (m0 === -Infinity && m1 === -Infinity) break;
        if (m0 >= m1) {
          nextMetric[out + k] = m0;
          back[backBase + k] = i0 << 1;
          i0++;
        } else {
          nextMetric[out + k] = m1;
          back[backBase + k] = (i1 << 1) | 1;
          i1++;
        }
      }
    }
    const swap = metric;
    metric = nextMetric;
    nextMetric = swap;
  }
  // Trace back each of the terminated all-zero state's paths, best first.
  let best: DecodedFrame | null = null;
  for (let rank = 0; rank < list; rank++) {
    if (metric[rank] === -Infinity) break;
    const info = new Uint8Array(INFO_BITS);
    let state = 0;
    let r = rank;
    for (let t = steps - 1; t >= 0; t--) {
      const input = state >> (TAIL_BITS - 1);
      if (t < INFO_BITS) info[t] = input;
      const pointer = back[(t * STATES + state) * list + r] as number;
      r = pointer >> 1;
      state = ((state << 1) & (STATES - 1)) | (pointer & 1);
    }
    const payload = checkedPayload(info);
    if (payload !== null)
      return { payload, correlation: codewordCorrelation(soft, convolve(info)) };
    best ??= { payload: null, correlation: codewordCorrelation(soft, convolve(info)) };
  }
  return best ?? { payload: null, correlation: 0 };
}

/** The payload of descrambled info bits whose CRC-32 matches, otherwise null. */
function checkedPayload(info: Uint8Array): bigint | null {
  const bytes = new Uint8Array(12);
  for (let i = 0; i < INFO_BITS; i++) {
    bytes[i >> 3] =
      (bytes[i >> 3] as number) |
      (((info[i] as number) ^ (scramble[i] as number)) << (7 - (i & 7)));
  }
  const crc =
    (((bytes[8] as number) << 24) |
      ((bytes[9] as number) << 16) |
      ((bytes[10] as number) << 8) |
      (bytes[11] as number)) >>>
    0;
  if (crc !== crc32(bytes.subarray(0, 8))) return null;
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
