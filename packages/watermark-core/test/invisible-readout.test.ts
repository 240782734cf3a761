import { describe, expect, it } from 'vitest';
import { markLayout, TILE } from '../src/code/mark-layout.ts';
import { Prng } from '../src/code/prng.ts';
import { chipReadouts, TAPS } from '../src/detect/chip-equaliser.ts';

const CHIPS = TILE * TILE;
const CENTRE = TAPS >> 1;
const centreOnly = Array.from({ length: TAPS }, (_, i) => (i === CENTRE ? 1 : 0));

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

/**
 * Random chip signs and their neighbourhoods: the chip's pulse (1 at the centre, `spread` around
 * it), a residue common to the whole neighbourhood (`shared` times the pulse's amplitude, as JPEG's
 * blocks leave) and independent noise per bin (`own`).
 */
function neighbourhoods(seed: string, spread: number, shared: number, own: number) {
  const prng = new Prng(seed);
  const signs = Array.from({ length: CHIPS }, () => prng.nextSign() as number);
  const samples = new Float64Array(CHIPS * TAPS);
  for (let chip = 0; chip < CHIPS; chip++) {
    const common = shared * gaussian(prng);
    for (let i = 0; i < TAPS; i++) {
      const pulse = i === CENTRE ? 1 : spread;
      samples[chip * TAPS + i] = pulse * (signs[chip] as number) + common + own * gaussian(prng);
    }
  }
  const known = Float32Array.from(markLayout.pilot, (p, chip) =>
    p === 0 ? 0 : (signs[chip] as number),
  );
  return { signs, samples, known };
}

/** SNR in dB of the message chips (not the pilots the fit saw) under `weights`. */
function messageSnr(data: ReturnType<typeof neighbourhoods>, weights: ArrayLike<number>): number {
  const message = data.signs.map((_, chip) => chip).filter((chip) => markLayout.pilot[chip] === 0);
  const values = message.map((chip) => {
    let value = 0;
    for (let i = 0; i < TAPS; i++)
      value += (weights[i] as number) * (data.samples[chip * TAPS + i] as number);
    return value;
  });
  return snrDb(
    values,
    message.map((chip) => data.signs[chip] as number),
  );
}

describe('chip readouts', () => {
  it('the fitted readout cancels residue shared with the neighbourhood, and comes first', () => {
    const data = neighbourhoods('shared residue', 0.2, 3, 0.5);
    const [first, second] = chipReadouts(data.samples, data.known).map((r) => r.weights);
    expect(Array.from(second ?? [])).toEqual(centreOnly);
    const fitted = messageSnr(data, first ?? []);
    const centre = messageSnr(data, centreOnly);
    expect(centre).toBeLessThan(-6);
    expect(fitted).toBeGreaterThan(centre + 10);
  });

  it('the centre comes first when only it carries the chip and the residue is white', () => {
    const data = neighbourhoods('white residue', 0, 0, 2.5);
    const [first, second] = chipReadouts(data.samples, data.known).map((r) => r.weights);
    expect(Array.from(first ?? [])).toEqual(centreOnly);
    expect(messageSnr(data, second ?? [])).toBeLessThan(messageSnr(data, centreOnly));
  });

  it('reads the centre alone when the fold holds nothing', () => {
    const readouts = chipReadouts(new Float64Array(CHIPS * TAPS), markLayout.pilot);
    expect(readouts.map(({ weights }) => Array.from(weights))).toEqual([centreOnly]);
  });
});
