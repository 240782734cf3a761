import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CHECK_BITS,
  CODED_BITS,
  decodeFrame,
  encodeFrame,
  frameCheck,
  LIST_SIZE,
} from '../src/code/frame-code.ts';
import { BLOCK, polarCode, polarTransform } from '../src/code/polar-code.ts';
import { Prng } from '../src/code/prng.ts';
import {
  ATTEMPTS_PER_WINDOW,
  DEEP_DECODES_PER_IMAGE,
  DEEP_LIST_SIZE,
  MAX_WINDOWS,
  READOUTS,
} from '../src/detect/detect.ts';

/** Soft values as the detector would see them: +1 for coded bit 0, -1 for bit 1, times `gain`. */
function softOf(coded: Uint8Array, gain = 1): Float64Array {
  return Float64Array.from(coded, (bit) => (bit ? -gain : gain));
}

function gaussian(prng: Prng): number {
  const u = (prng.nextUint32() + 1) / 4294967297;
  const v = prng.nextUint32() / 4294967296;
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

describe('frame code (48-bit check + polar code, 1024 punctured to 768)', () => {
  it('checks a payload by the first 48 bits of its SHA-256', () => {
    const bytes = Uint8Array.from([1, 35, 69, 103, 137, 171, 205, 239]);
    expect(CHECK_BITS).toBe(48);
    expect(Buffer.from(frameCheck(bytes)).toString('hex')).toBe(
      createHash('sha256').update(bytes).digest('hex').slice(0, 12),
    );
    expect(CODED_BITS).toBe(768);
  });

  it('the polar code: 112 information positions, 768 sent, a transform that is its own inverse', () => {
    expect(polarCode.informationPositions.length).toBe(112);
    expect(polarCode.sent.length).toBe(CODED_BITS);
    // F^(x)n is an involution over GF(2): encoding twice gives the input back.
    const prng = new Prng('polar transform');
    const u = Uint8Array.from({ length: BLOCK }, () => prng.nextUint32() & 1);
    expect(polarTransform(polarTransform(u))).toEqual(u);
    // u_0 is the least reliable bit channel of any polar code: always frozen.
    expect(polarCode.information[0]).toBe(0);
    expect(polarCode.information[BLOCK - 1]).toBe(1);
  });

  it('round-trips payloads at the extremes of the 64-bit range', () => {
    for (const payload of [0n, 1n, 0xffff_ffff_ffff_ffffn, 0x0123_4567_89ab_cdefn]) {
      const frame = decodeFrame(softOf(encodeFrame(payload)));
      expect(frame.payload).toBe(payload);
      expect(frame.correlation).toBeCloseTo(1, 6);
    }
  });

  it('corrects a burst of wrong coded bits', () => {
    const payload = 0xdead_beef_cafe_f00dn;
    const soft = softOf(encodeFrame(payload));
    for (let i = 100; i < 106; i++) soft[i] = -(soft[i] as number);
    expect(decodeFrame(soft).payload).toBe(payload);
  });

  it('decodes through noise that flips a quarter of the hard decisions', () => {
    const prng = new Prng('test noise');
    let flipped = 0;
    for (let trial = 0; trial < 20; trial++) {
      const payload = BigInt(prng.nextUint32()) * 0x1_0000_0001n;
      const coded = encodeFrame(payload);
      // Noise of standard deviation 1.48 per coded bit: P(flip) = Q(1 / 1.48) = 25%.
      const soft = softOf(coded).map((v) => v + 1.48 * gaussian(prng));
      soft.forEach((v, i) => {
        if (v > 0 !== (coded[i] === 0)) flipped++;
      });
      expect(decodeFrame(soft).payload).toBe(payload);
    }
    expect(flipped / (20 * CODED_BITS)).toBeGreaterThan(0.22);
  });

  it('a deeper list decodes frames just past what the default list reaches', () => {
    // Noise of standard deviation 2.2 per coded bit (P(flip) = 32 %, a chip SNR of -9.8 dB): near
    // where decoding fails.
    const prng = new Prng('near misses');
    let shallow = 0;
    let deep = 0;
    for (let trial = 0; trial < 24; trial++) {
      const payload = BigInt(prng.nextUint32()) * 0x1_0000_0001n;
      const soft = softOf(encodeFrame(payload)).map((v) => v + 2.2 * gaussian(prng));
      if (decodeFrame(soft).payload === payload) shallow++;
      if (decodeFrame(soft, DEEP_LIST_SIZE).payload === payload) deep++;
    }
    expect(deep).toBeGreaterThanOrEqual(shallow + 4);
  });

  it('rejects noise and blank input through the check value', () => {
    const prng = new Prng('pure noise');
    let accepted = 0;
    for (let trial = 0; trial < 200; trial++) {
      const soft = Float64Array.from({ length: CODED_BITS }, () => gaussian(prng));
      if (decodeFrame(soft).payload !== null) accepted++;
    }
    expect(accepted).toBe(0);
    expect(decodeFrame(new Float64Array(CODED_BITS)).payload).toBeNull();
  });

  it('keeps the analytic false-detection rate of a whole search under 1e-9 per image', () => {
    // Every window searched decodes at most ATTEMPTS_PER_WINDOW alignments, each in READOUTS
    // readouts checking at most LIST_SIZE candidates; a candidate decoded from an unmarked image
    // passes with 2^-CHECK_BITS. An image's deep decodes check DEEP_LIST_SIZE candidates each.
    const candidates =
      MAX_WINDOWS * ATTEMPTS_PER_WINDOW * READOUTS * LIST_SIZE +
      DEEP_DECODES_PER_IMAGE * DEEP_LIST_SIZE;
    expect(candidates).toBe(12_288);
    expect(candidates * 2 ** -CHECK_BITS).toBeLessThanOrEqual(1e-9);
  });

  it('refuses soft input of the wrong length', () => {
    expect(() => decodeFrame(new Float64Array(10))).toThrow(RangeError);
  });
});
