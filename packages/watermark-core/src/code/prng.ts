// Deterministic pseudo-random numbers for the mark's patterns. The embedder and the detector must
// draw exactly the same sequences on every platform, so this is a fixed integer algorithm
// (xoshiro128**, seeded through splitmix32 from a string) rather than Math.random.

/** A seeded generator of 32-bit integers; the same seed always yields the same sequence. */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string) {
    let h = 0x811c9dc5;
    for (let i = 0; i < seed.length; i++) {
      h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193);
    }
    const next = () => {
      h = (h + 0x9e3779b9) | 0;
      let z = h;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
  }

  /** Next unsigned 32-bit integer. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** Uniform integer in [0, n). */
  nextInt(n: number): number {
    return Math.floor((this.nextUint32() / 0x1_0000_0000) * n);
  }

  /** +1 or -1 with equal probability. */
  nextSign(): 1 | -1 {
    return (this.nextUint32() & 1) === 0 ? 1 : -1;
  }

  /** Fisher-Yates shuffle in place. */
  shuffle<T extends { length: number; [i: number]: number }>(values: T): T {
    for (let i = values.length - 1; i > 0; i--) {
      const j = this.nextInt(i + 1);
      const tmp = values[i] as number;
      values[i] = values[j] as number;
      values[j] = tmp;
    }
    return values;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
