// The polar code that carries the frame: block length 1024 (x = u F^(x)10, F = [1 0; 1 1]),
// punctured to the 768 message chips of the tile, 112 information bits. Which positions carry
// information is found once per process by the Gaussian approximation of density evolution
// (Trifonov; Chung's phi function), with the punctured positions as channels that say nothing:
// the 112 most reliable bit channels carry the frame, the others are frozen to 0. Punctured are
// the coded bits at the bit-reversed indices of 0..255 (quasi-uniform puncturing, Niu et al.).
// It decodes frames at a lower chip SNR than the version 2 frame (a rate-1/3 convolutional code
// on 2-3 chips per bit) did, with fewer paths (figures:
// README.md#measurements-behind-the-constants).

/** log2 of the mother code's length. */
export const STAGES = 10;
export const BLOCK = 1 << STAGES;
/** Coded bits sent: the tile's message chips. */
export const SENT_BITS = 768;
/** Information bits: the 64-bit payload and its 48-bit check. */
export const INFORMATION_BITS = 112;
/**
 * Chip SNR (Es/N0, dB) the code is designed for: about where frames start to fail; of the designs
 * tried, the one that decoded the most frames near the decoder's limit
 * (README.md#measurements-behind-the-constants).
 */
const DESIGN_SNR_DB = -7;

const bitReversed = (i: number): number => {
  let r = 0;
  for (let b = 0; b < STAGES; b++) r |= ((i >> b) & 1) << (STAGES - 1 - b);
  return r;
};

export interface PolarCode {
  /** 1 where u_i carries information, natural order. */
  readonly information: Uint8Array;
  /** Indices of u that carry the information bits, ascending. */
  readonly informationPositions: Int32Array;
  /** Codeword positions sent, ascending (SENT_BITS of them). */
  readonly sent: Int32Array;
  /**
   * Where each sent bit goes among the list decoder's channel values, which it reads in
   * bit-reversed order (the punctured positions stay 0: no evidence).
   */
  readonly decoderOrder: Int32Array;
}

export const polarCode: PolarCode = (() => {
  const punctured = new Uint8Array(BLOCK);
  for (let j = 0; j < BLOCK - SENT_BITS; j++) punctured[bitReversed(j)] = 1;
  // Mean LLR of a BPSK chip at the design SNR: 4 Es/N0; a punctured position carries none.
  const mean = 4 * 10 ** (DESIGN_SNR_DB / 10);
  const reliability = densityEvolution(Float64Array.from(punctured, (p) => (p ? 0 : mean)));
  const ranked = Array.from(reliability.keys()).sort(
    (a, b) => (reliability[b] as number) - (reliability[a] as number),
  );
  const information = new Uint8Array(BLOCK);
  for (const i of ranked.slice(0, INFORMATION_BITS)) information[i] = 1;
  const positions: number[] = [];
  const sent: number[] = [];
  for (let i = 0; i < BLOCK; i++) {
    if (information[i]) positions.push(i);
    if (!punctured[i]) sent.push(i);
  }
  return {
    information,
    informationPositions: Int32Array.from(positions),
    sent: Int32Array.from(sent),
    decoderOrder: Int32Array.from(sent, bitReversed),
  };
})();

/** x = u F^(x)n in natural order (in place on a copy). */
export function polarTransform(u: Uint8Array): Uint8Array {
  const x = u.slice();
  for (let half = BLOCK >> 1; half >= 1; half >>= 1) {
    for (let start = 0; start < BLOCK; start += 2 * half) {
      for (let i = start; i < start + half; i++) x[i] = (x[i] as number) ^ (x[i + half] as number);
    }
  }
  return x;
}

/**
 * Mean LLR of each bit channel u_i given the coded bits' mean LLRs (natural order): the code
 * x = [v_A xor v_B, v_B] splits into v_A, seen through a check node, and v_B, through a variable
 * node, down to single bits.
 */
function densityEvolution(means: Float64Array): Float64Array {
  if (means.length === 1) return means;
  const half = means.length >> 1;
  const worse = new Float64Array(half);
  const better = new Float64Array(half);
  for (let i = 0; i < half; i++) {
    const a = means[i] as number;
    const b = means[i + half] as number;
    worse[i] = a === 0 || b === 0 ? 0 : phiInverse(1 - (1 - phi(a)) * (1 - phi(b)));
    better[i] = a + b;
  }
  const out = new Float64Array(means.length);
  out.set(densityEvolution(worse));
  out.set(densityEvolution(better), half);
  return out;
}

/** Chung's approximation of the check-node function of a Gaussian LLR of mean x. */
function phi(x: number): number {
  if (x <= 0) return 1;
  if (x < 10) return Math.exp(-0.4527 * x ** 0.86 + 0.0218);
  return Math.sqrt(Math.PI / x) * Math.exp(-x / 4) * (1 - 10 / (7 * x));
}

function phiInverse(y: number): number {
  if (y >= 1) return 0;
  let low = 0;
  let high = 1;
  while (phi(high) > y) high *= 2;
  for (let i = 0; i < 60; i++) {
    const middle = (low + high) / 2;
    if (phi(middle) > y) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}
