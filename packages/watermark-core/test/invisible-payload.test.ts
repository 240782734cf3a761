import { describe, expect, it } from 'vitest';
import { INVISIBLE_MARK_ALGORITHM, payloadFromHex, payloadToHex } from '../src/invisible.ts';

describe('payload helpers', () => {
  it('writes 16 lowercase hex digits and reads them back', () => {
    expect(payloadToHex(0n)).toBe('0000000000000000');
    expect(payloadToHex(0xabcn)).toBe('0000000000000abc');
    expect(payloadToHex(0xffff_ffff_ffff_ffffn)).toBe('ffffffffffffffff');
    expect(payloadFromHex('00000000DEADBEEF')).toBe(0xdead_beefn);
    expect(payloadFromHex(payloadToHex(0x0123_4567_89ab_cdefn))).toBe(0x0123_4567_89ab_cdefn);
  });

  it('rejects payloads outside 64 bits and malformed hex', () => {
    expect(() => payloadToHex(-1n)).toThrow(RangeError);
    expect(() => payloadToHex(1n << 64n)).toThrow(RangeError);
    for (const bad of ['', 'abc', '0x00000000000000', '00000000000000000', '000000000000000g']) {
      expect(() => payloadFromHex(bad)).toThrow(RangeError);
    }
  });

  it('names the algorithm for the C2PA soft-binding assertion', () => {
    expect(INVISIBLE_MARK_ALGORITHM).toBe('dev.hallmark.invisible.3');
  });
});
