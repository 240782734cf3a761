// Where each chip of the 32x32 tile goes. A quarter of the chips are pilots with known signs
// (one at a random place in every 2x2 block, so they cover the tile evenly): the detector
// correlates with them to find the tile's orientation and offset. The other 768 chips carry the
// 768 coded bits, one each, in a pseudo-random order (and so on every copy of the tile),
// multiplied by a pseudo-random carrier sign so that image structure does not bias any bit. (The
// layout's seed is still version 2's: the pilots are the same, the message chips' order is new.)
import { CODED_BITS } from './frame-code.ts';
import { Prng } from './prng.ts';

/**
 * Chips per side of the repeated tile. A small tile repeats many times within the detector's
 * analysis window, so the synchronisation sees many lattice points; 32x32 holds the 768 coded bits
 * besides the pilots.
 */
export const TILE = 32;
const CHIPS = TILE * TILE;

export interface MarkLayout {
  /** +1/-1 at pilot chips, 0 at message chips (row-major, TILE x TILE). */
  readonly pilot: Float32Array;
  /** Coded-bit index carried by each message chip, -1 at pilots. */
  readonly slot: Int16Array;
  /** Carrier sign of each message chip. */
  readonly carrier: Int8Array;
}

export const markLayout: MarkLayout = (() => {
  const prng = new Prng('hallmark.invisible.v2/layout');
  const pilot = new Float32Array(CHIPS);
  const slot = new Int16Array(CHIPS).fill(-1);
  const carrier = new Int8Array(CHIPS);
  for (let by = 0; by < TILE; by += 2) {
    for (let bx = 0; bx < TILE; bx += 2) {
      const pick = prng.nextInt(4);
      pilot[(by + (pick >> 1)) * TILE + bx + (pick & 1)] = prng.nextSign();
    }
  }
  const messageChips: number[] = [];
  for (let i = 0; i < CHIPS; i++) if (pilot[i] === 0) messageChips.push(i);
  const order = prng.shuffle(Int32Array.from(messageChips));
  order.forEach((chip, k) => {
    slot[chip] = k % CODED_BITS;
    carrier[chip] = prng.nextSign();
  });
  return { pilot, slot, carrier };
})();

/** The tile's chip values (+1/-1) for a codeword: pilots plus carrier-modulated coded bits. */
export function tilePattern(coded: Uint8Array): Float32Array {
  const pattern = new Float32Array(CHIPS);
  for (let i = 0; i < CHIPS; i++) {
    const k = markLayout.slot[i] as number;
    pattern[i] =
      k < 0
        ? (markLayout.pilot[i] as number)
        : (markLayout.carrier[i] as number) * (coded[k] ? -1 : 1);
  }
  return pattern;
}
