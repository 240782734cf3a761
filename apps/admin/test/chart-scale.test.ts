import { describe, expect, it } from 'vitest';
import { age, bytes, duration, niceCeiling, percent } from '../components/charts/scale.ts';

describe("the charts' scale and units", () => {
  it('tops an axis at the next 1, 2 or 5 times a power of ten', () => {
    expect([0, 0.3, 1, 3, 7, 10, 11, 180, 501].map(niceCeiling)).toEqual([
      1, 0.5, 1, 5, 10, 10, 20, 200, 1_000,
    ]);
  });

  it('writes durations, ages, sizes and shares in the unit a reader expects', () => {
    expect([null, 850, 1_234, 42_000, 150_000].map(duration)).toEqual([
      '—',
      '850 ms',
      '1.2 s',
      '42 s',
      '2.5 min',
    ]);
    expect([45, 100, 720, 10_800].map(age)).toEqual(['45 s', '100 s', '12 min', '3.0 h']);
    expect([512, 1_536, 20 * 1_048_576].map(bytes)).toEqual(['512 B', '1.5 KiB', '20.0 MiB']);
    expect([0, 0.025, 1 / 3].map(percent)).toEqual(['0 %', '2.5 %', '33 %']);
  });
});
