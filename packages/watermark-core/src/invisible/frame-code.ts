// The mark's error-correcting frame: 64 payload bits and a 48-bit check value (the first 48 bits of
// the payload's SHA-256; 112 bits), scrambled with a fixed pseudo-random sequence and encoded with
// a rate-1/3, constraint-length-7 convolutional code (generators 133, 171, 165 octal,
// zero-terminated: 354 coded bits). The detector decodes soft chip correlations with the Viterbi
// algorithm and accepts a frame only when its check matches: for a frame decoded from noise that
// happens with probability 2^-48, which leaves room for the many places and scales the detector
// searches while keeping false detections under 1e-9 per image (see detect.ts).
import { createHash } from 'node:crypto';
import { Prng } from './prng.ts';

export const PAYLOAD_BITS = 64;
/** Bits of the check value: a random frame passes it with probability 2^-CHECK_BITS. */
export const CHECK_BITS = 48;
export const INFO_BITS = PAYLOAD_BITS + CHECK_BITS;
const CONSTRAINT = 7;
const TAIL_BITS = CONSTRAINT - 1;
const GENERATORS = [0o133, 0o171, 0o165] as const;
const STATES = 1 << TAIL_BITS;
export const CODED_BITS = (INFO_BITS + TAIL_BITS) * GENERATORS.length;

// Scrambling keeps a flat or blank image (all-zero soft values) from decoding to the all-zero
// frame, and makes a frame decoded from noise a random word to the check.
const scramble = (() => {
  const prng = new Prng('hallmark.invisible.v2/scramble');
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
  const bytes = new Uint8Array(INFO_BITS / 8);
  for (let i = 0; i < 8; i++) bytes[i] = Number((payload >> BigInt(56 - 8 * i)) & 0xffn);
  bytes.set(frameCheck(bytes.subarray(0, 8)), 8);
  const bits = new Uint8Array(INFO_BITS);
  for (let i = 0; i < INFO_BITS; i++) {
    bits[i] = (((bytes[i >> 3] as number) >> (7 - (i & 7))) & 1) ^ (scramble[i] as number);
  }
  return bits;
}

/** The 354 coded bits (0/1) that carry `payload`. */
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
  /** The payload when the check value matched, otherwise null. */
  readonly payload: bigint | null;
  /**
   * Normalised correlation between the soft input and the re-encoded best codeword, in [-1, 1]:
   * near 1 for a clean mark, around 0.3-0.5 for noise (the decoder picks the best of 2^112).
   */
  readonly correlation: number;
}

/** Paths kept per trellis state by the list Viterbi decoder; each is checked against the check value. */
export const LIST_SIZE = 32;

/**
 * Soft-decision list Viterbi decoding (the `list` best paths through the trellis, aided by the
 * check value: the best path that passes it wins). `soft[i] > 0` votes for coded bit i being 0.
 * Returns the payload only when a path's check matches, so at most `list` frames are checked
 * (at most 32,768: the trace-back stores ranks in 16 bits).
 */
export function decodeFrame(soft: Float32Array | Float64Array, list = LIST_SIZE): DecodedFrame {
  if (soft.length !== CODED_BITS) throw new RangeError(`expected ${CODED_BITS} soft values`);
  if (list < 1 || list > 32_768) throw new RangeError('the list holds 1 to 32,768 paths');
  const steps = INFO_BITS + TAIL_BITS;
  const n = GENERATORS.length;
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
