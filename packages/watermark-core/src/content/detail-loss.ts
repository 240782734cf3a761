// Detail a copy lost in one place: a region blurred or smudged over keeps its tones and colours,
// so the residual of copy minus reference is only the detail it lost, which an honest copy's
// misplaced edges also leave. What tells them apart is the detail's energy: a shift or a resample
// moves detail but keeps it; a blur removes it. Energies are compared locally, against the share
// of detail the whole copy keeps (a copy blurred, shrunk or re-encoded as a whole keeps less
// everywhere, and that is its treatment, not an edit).
import type { ResidualPlane } from './block-scores.ts';
import { maskedBlur, subtract } from './masked-filters.ts';
import { median } from './photometric.ts';

/** The detail compared: what a blur of this sigma (work pixels) removes. */
const DETAIL_SIGMA = 2;
/** Energy is averaged over about this radius (work pixels). */
const ENERGY_SIGMA = 2;
/**
 * Only detail at least this strong (RMS luma levels, as the copy keeps it) can be said to be
 * lost: fainter texture a coarse re-encoding may flatten in some places and not in others.
 */
const MIN_DETAIL = 6;
/**
 * The lowest share of its detail an honest copy is assumed to lose unevenly: lower than the
 * residual planes' (energies do not move with a sub-pixel misplacement as pixels do).
 */
export const DETAIL_LOSS_MIN_SHARE = 0.12;

/**
 * A residual plane of the detail the copy lacks where the reference has it, beyond the share of
 * detail the copy keeps as a whole: near zero on an honest copy, the detail itself where a region
 * was blurred.
 */
export function detailLoss(
  reference: Float32Array,
  copy: Float32Array,
  valid: Uint8Array,
  width: number,
  height: number,
): ResidualPlane {
  // Both through the copy's mask: at the edge of what the copy shows, the reference must not
  // count detail from beyond it (a crop's border would read as detail lost).
  const energy = (plane: Float32Array) => {
    const squared = subtract(plane, maskedBlur(plane, valid, width, height, DETAIL_SIGMA));
    for (let i = 0; i < squared.length; i++) {
      const v = squared[i] as number;
      squared[i] = v * v;
    }
    const energy = maskedBlur(squared, valid, width, height, ENERGY_SIGMA);
    for (let i = 0; i < energy.length; i++) energy[i] = Math.sqrt(energy[i] as number);
    return energy;
  };
  const referenceEnergy = energy(reference);
  const copyEnergy = energy(copy);
  // The share of detail the copy keeps as a whole, where there is detail to keep.
  const ratios: number[] = [];
  for (let i = 0; i < valid.length; i += 3) {
    if (valid[i] === 0 || (referenceEnergy[i] as number) < MIN_DETAIL) continue;
    ratios.push((copyEnergy[i] as number) / (referenceEnergy[i] as number));
  }
  const kept = ratios.length === 0 ? 1 : Math.min(1.5, median(ratios));
  const residual = new Float32Array(valid.length);
  const detail = new Float32Array(valid.length);
  for (let i = 0; i < valid.length; i++) {
    if (valid[i] === 0) continue;
    const expected = kept * (referenceEnergy[i] as number);
    if (expected < MIN_DETAIL) continue;
    detail[i] = expected;
    residual[i] = Math.max(0, expected - (copyEnergy[i] as number));
  }
  return { residual, detail, minShare: DETAIL_LOSS_MIN_SHARE };
}
