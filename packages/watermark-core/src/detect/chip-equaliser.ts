// How a chip is read from the folded tile. At its centre alone, or by a weighted sum of the bins
// around it fitted per frame on its own pilots: the chip's pulse spreads over the neighbouring
// half-chip bins, and the residue the host and the compression leave there is often correlated
// with the residue at the centre (clipped blacks, JPEG's blocks, the high-pass's own ringing),
// which a fitted sum cancels in part. The fit is least squares on the 256 pilot chips, whose
// signs are known, with a small ridge; with 25 weights on 256 noisy chips it also fits some of
// their noise, so where the residue is white the centre alone reads better. Both readouts are
// kept, the one whose pilots it predicts better (leave-one-out, so the fit's own noise counts
// against it) first. The fitted readout gains most on dark and compressed photos and loses a
// little where the residue is white; 5x5 bins gained more than 3x3, and 7x7 overfits (figures:
// README.md#measurements-behind-the-constants).

/** Neighbourhood reach in half-chip bins: a chip is read from the (2R+1)^2 bins around it. */
export const REACH = 2;
/** Weights of one readout: (2 * REACH + 1)^2, row-major, the centre in the middle. */
export const TAPS = (2 * REACH + 1) ** 2;
/** Readouts tried per frame (the false-detection bound counts each). */
export const READOUTS = 2;
/** Ridge against overfitting, relative to the Gram matrix's mean diagonal (the bins' power). */
const RIDGE = 0.05;
const CENTRE = TAPS >> 1;

/** One way of reading the chips: weights over a chip's TAPS bins. */
export interface Readout {
  readonly weights: Float64Array;
  /** SNR of the pilots as read this way (for the fitted readout, each fitted without it). */
  readonly pilotSnr: number;
}

/**
 * The frame's readouts, the one that predicts the pilots better first: the centre alone and the
 * weights fitted on the pilots. `samples` holds TAPS values per chip, `known` +1/-1 at the pilots
 * and 0 elsewhere. When the neighbourhoods hold nothing to fit (an all-zero fold) only the centre.
 */
export function chipReadouts(samples: Float64Array, known: Float32Array): Readout[] {
  const weights = new Float64Array(TAPS);
  weights[CENTRE] = 1;
  const centre = {
    weights,
    pilotSnr: pilotSnr(known, (chip) => samples[chip * TAPS + CENTRE] as number),
  };
  const fitted = fitReadout(samples, known);
  if (fitted === null) return [centre];
  return fitted.pilotSnr > centre.pilotSnr ? [fitted, centre] : [centre, fitted];
}

/** Ridge least-squares weights that map a pilot's neighbourhood to its sign; null if degenerate. */
function fitReadout(samples: Float64Array, known: Float32Array): Readout | null {
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
  if (!(power > 0)) return null;
  const ridge = (RIDGE * power) / TAPS;
  for (let i = 0; i < TAPS; i++) gram[i * TAPS + i] = (gram[i * TAPS + i] as number) + ridge;
  const factor = cholesky(gram, TAPS);
  if (factor === null) return null;
  const weights = solveWith(factor, cross);
  // Leave-one-out prediction of each pilot: (fit - leverage * sign) / (1 - leverage), the leverage
  // x^T A^-1 x being the squared norm of L^-1 x.
  const forward = new Float64Array(TAPS);
  const snr = pilotSnr(known, (chip) => {
    const at = chip * TAPS;
    let fit = 0;
    for (let i = 0; i < TAPS; i++) fit += (weights[i] as number) * (samples[at + i] as number);
    const leverage = forwardNorm(factor, samples, at, forward);
    return (fit - leverage * (known[chip] as number)) / (1 - leverage);
  });
  return { weights, pilotSnr: snr };
}

/** Mean of value * sign over the pilots, squared, over its variance. */
function pilotSnr(known: Float32Array, value: (chip: number) => number): number {
  let sum = 0;
  let sumSq = 0;
  let count = 0;
  for (let chip = 0; chip < known.length; chip++) {
    const sign = known[chip] as number;
    if (sign === 0) continue;
    const product = sign * value(chip);
    sum += product;
    sumSq += product * product;
    count++;
  }
  const mean = sum / count;
  const variance = sumSq / count - mean * mean;
  return variance > 0 ? (mean * mean) / variance : 0;
}

/** Lower Cholesky factor of a symmetric positive definite matrix (its lower triangle); or null. */
function cholesky(a: Float64Array, n: number): Float64Array | null {
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
  return l;
}

/** y = L^-1 x for x = source[at .. at + n), n = y.length (forward substitution). */
function forwardSolve(l: Float64Array, source: Float64Array, at: number, y: Float64Array): void {
  const n = y.length;
  for (let i = 0; i < n; i++) {
    let sum = source[at + i] as number;
    for (let k = 0; k < i; k++) sum -= (l[i * n + k] as number) * (y[k] as number);
    y[i] = sum / (l[i * n + i] as number);
  }
}

/** |L^-1 x|^2 for x = samples[at .. at + n), `y` as scratch. */
function forwardNorm(l: Float64Array, samples: Float64Array, at: number, y: Float64Array): number {
  forwardSolve(l, samples, at, y);
  let norm = 0;
  for (const v of y) norm += v * v;
  return norm;
}

/** Solves L L^T w = b. */
function solveWith(l: Float64Array, b: Float64Array): Float64Array {
  const n = b.length;
  const y = new Float64Array(n);
  forwardSolve(l, b, 0, y);
  const w = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let sum = y[i] as number;
    for (let k = i + 1; k < n; k++) sum -= (l[k * n + i] as number) * (w[k] as number);
    w[i] = sum / (l[i * n + i] as number);
  }
  return w;
}
