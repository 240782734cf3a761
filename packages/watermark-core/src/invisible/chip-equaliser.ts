// The readout of a chip from the folded tile, fitted per frame on its own pilots. Reading a chip
// at its centre alone wastes what its neighbourhood knows: the chip's pulse spreads over the
// neighbouring half-chip bins, and the host's and the compression's residue there is correlated
// with the residue at the centre (JPEG's blocks, WebP's prediction, the high-pass's own ringing),
// so a weighted sum of the bins around the centre can cancel part of it. The best weights differ
// from copy to copy (the attack, the chip size in bins), so they are fitted on the 256 pilot chips,
// whose signs are known: least squares with a small ridge, since 25 weights fitted on 256 noisy
// chips overfit without it. Measured on 16 evaluation photos of 0.15-2 MP with the true frame
// known: the message chips' SNR rises by 1.3-2.0 dB over the centre alone under JPEG q20 and WebP
// q75 (the 3x3 neighbourhood: 0.6-1.3 dB; 7x7: overfits, below the centre on small images).

/** Neighbourhood reach in half-chip bins: a chip is read from the (2R+1)^2 bins around it. */
export const REACH = 2;
/** Weights of one readout: (2 * REACH + 1)^2, row-major, the centre in the middle. */
export const TAPS = (2 * REACH + 1) ** 2;
/** Ridge, relative to the mean bin power, that keeps 25 weights from fitting the pilots' noise. */
const RIDGE = 0.05;

/**
 * Readout weights fitted on the pilots: `samples` holds TAPS values per chip, `known` +1/-1 at the
 * chips whose sign is known (the pilots) and 0 elsewhere. Falls back to the centre alone when the
 * neighbourhoods hold nothing (an all-zero fold).
 */
export function fitReadout(samples: Float64Array, known: Float32Array): Float64Array {
  const gram = new Float64Array(TAPS * TAPS);
  const cross = new Float64Array(TAPS);
  for (let chip = 0; chip < known.length; chip++) {
    const sign = known[chip] as number;
    if (sign === 0) continue;
    const at = chip * TAPS;
    for (let i = 0; i < TAPS; i++) {
      const xi = samples[at + i] as number;
      cross[i] = (cross[i] as number) + sign * xi;
      const row = i * TAPS;
      for (let j = 0; j <= i; j++)
        gram[row + j] = (gram[row + j] as number) + xi * (samples[at + j] as number);
    }
  }
  let power = 0;
  for (let i = 0; i < TAPS; i++) power += gram[i * TAPS + i] as number;
  const centreOnly = new Float64Array(TAPS);
  centreOnly[TAPS >> 1] = 1;
  if (!(power > 0)) return centreOnly;
  const ridge = (RIDGE * power) / TAPS;
  for (let i = 0; i < TAPS; i++) gram[i * TAPS + i] = (gram[i * TAPS + i] as number) + ridge;
  return solveSymmetric(gram, cross) ?? centreOnly;
}

/**
 * Solves A w = b for a symmetric positive definite A (lower triangle filled, row-major) by
 * Cholesky; null when A is not positive definite.
 */
function solveSymmetric(a: Float64Array, b: Float64Array): Float64Array | null {
  const n = b.length;
  const l = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = a[i * n + j] as number;
      for (let k = 0; k < j; k++) sum -= (l[i * n + k] as number) * (l[j * n + k] as number);
      if (i === j) {
        if (!(sum > 0)) return null;
        l[i * n + i] = Math.sqrt(sum);
      } else {
        l[i * n + j] = sum / (l[j * n + j] as number);
      }
    }
  }
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = b[i] as number;
    for (let k = 0; k < i; k++) sum -= (l[i * n + k] as number) * (y[k] as number);
    y[i] = sum / (l[i * n + i] as number);
  }
  const w = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let sum = y[i] as number;
    for (let k = i + 1; k < n; k++) sum -= (l[k * n + i] as number) * (w[k] as number);
    w[i] = sum / (l[i * n + i] as number);
  }
  return w;
}
