import { describe, expect, it } from 'vitest';
import { fitReadout, TAPS } from '../src/invisible/chip-equaliser.ts';
import { markLayout, TILE } from '../src/invisible/mark-layout.ts';
import { Prng } from '../src/invisible/prng.ts';

const CHIPS = TILE * TILE;
const CENTRE = TAPS >> 1;

/** Roughly Gaussian noise from the seeded generator (sum of 4 uniforms, unit variance). */
function gaussian(prng: Prng): number {
  let sum = 0;
  for (let i = 0; i < 4; i++) sum += prng.nextUint32() / 2 ** 32 - 0.5;
  return sum * Math.sqrt(3);
}

/** Mean over chips of value * sign, squared, over the variance of value * sign, in dB. */
function snrDb(values: number[], signs: number[]): number {
  const products = values.map((v, i) => v * (signs[i] as number));
  const mean = products.reduce((s, v) => s + v, 0) / products.length;
  const variance = products.reduce((s, v) => s + (v - mean) ** 2, 0) / products.length;
  return 10 * Math.log10((mean * mean) / variance);
}

describe('chip readout fitted on the pilots', () => {
  it('cancels residue shared by a chip and its neighbourhood, which the centre alone cannot', () => {
    const prng = new Prng('readout');
    const signs = Array.from({ length: CHIPS }, () => prng.nextSign() as number);
    const samples = new Float64Array(CHIPS * TAPS);
    for (let chip = 0; chip < CHIPS; chip++) {
      // A blocky residue common to the whole neighbourhood (as JPEG leaves), three times the
      // chip's own amplitude, plus a little independent noise per bin.
      const shared = 3 * gaussian(prng);
      for (let i = 0; i < TAPS; i++) {
        const pulse = i === CENTRE ? 1 : 0.2;
        samples[chip * TAPS + i] = pulse * (signs[chip] as number) + shared + 0.5 * gaussian(prng);
      }
    }
    // The pilots are the known chips; score on the others.
    const known = Float32Array.from(markLayout.pilot, (p, chip) =>
      p === 0 ? 0 : (signs[chip] as number),
    );
    const weights = fitReadout(samples, known);
    const message = signs.map((_, chip) => chip).filter((chip) => markLayout.pilot[chip] === 0);
    const read = (w: (i: number) => number) =>
      message.map((chip) => {
        let value = 0;
        for (let i = 0; i < TAPS; i++) value += w(i) * (samples[chip * TAPS + i] as number);
        return value;
      });
    const truth = message.map((chip) => signs[chip] as number);
    const centreOnly = snrDb(
      read((i) => (i === CENTRE ? 1 : 0)),
      truth,
    );
    const fitted = snrDb(
      read((i) => weights[i] as number),
      truth,
    );
    expect(centreOnly).toBeLessThan(-6);
    expect(fitted).toBeGreaterThan(centreOnly + 10);
  });

  it('falls back to the centre alone when the fold holds nothing', () => {
    const weights = fitReadout(new Float64Array(CHIPS * TAPS), markLayout.pilot);
    expect(Array.from(weights)).toEqual(
      Array.from({ length: TAPS }, (_, i) => (i === CENTRE ? 1 : 0)),
    );
  });
});
