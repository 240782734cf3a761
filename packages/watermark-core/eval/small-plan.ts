// The quick evaluation run by `pnpm test` (in-process, well under a minute): three small photos
// (the hardest sizes: textured 0.25 MP, a flat 0.5 MP gradient, portrait 0.4 MP), one attack of
// each kind and tier (one of each second-generation family too), and a few false-detection checks.
import { allAttacks, type EvaluationPlan } from './evaluation.ts';

const SMALL_ATTACKS = [
  'none',
  'JPEG q75',
  'grayscale',
  'WebP q75',
  'centre crop 75%',
  'rotate 5deg + crop',
  'social: long side 1080, JPEG q80',
  'resize 0.5x + JPEG q75',
  // One of each second-generation family (attacks-v2.ts).
  'stretch width 1.25x',
  'perspective 10%',
  'off-centre crop 25%',
  'pasted at 25% of a canvas',
  'JPEG q20',
  'Gaussian blur sigma 2',
  'Gaussian noise sigma 10',
  'feed crop 4:5, 1080, JPEG q85',
  'messaging: JPEG q70 then q85',
];

export function smallPlan(seed: number): EvaluationPlan {
  return {
    photos: ['fig-0.25mp.jpg', 'dusk-lake-0.5mp.jpg', 'autumn-hill-portrait-0.4mp.jpg'],
    attacks: allAttacks.filter((a) => SMALL_ATTACKS.includes(a.name)),
    falseDetectionImages: 9,
    seed,
    workers: 0,
  };
}
