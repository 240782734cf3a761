// `pnpm --filter @hallmark/watermark-core eval [--small] [--seed N] [--workers N]
// [--photos REGEX] [--attacks REGEX] [--false-detections N] [--trace FILE]`: marks every photo of
// fixtures/photos with a random payload, attacks it every way of the issue, measures PSNR/SSIM
// and exact recovery, checks unmarked images for false detections, prints the tables, and exits 1
// when a target is missed. `--small` is the quick version `pnpm test` also runs; `--photos` and
// `--attacks` keep the photos and attacks whose names match (for working on one weakness).
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { allAttacks, defaultSeed, evaluate } from './evaluation.ts';
import { photoSet } from './photo-set.ts';
import { formatEvaluation } from './report.ts';
import { smallPlan } from './small-plan.ts';

const { values } = parseArgs({
  options: {
    small: { type: 'boolean', default: false },
    seed: { type: 'string' },
    workers: { type: 'string' },
    'false-detections': { type: 'string' },
    photos: { type: 'string' },
    attacks: { type: 'string' },
    trace: { type: 'string' },
  },
});
const matches = (pattern: string | undefined) => {
  const regex = pattern === undefined ? null : new RegExp(pattern, 'i');
  return (name: string) => regex === null || regex.test(name);
};
const seed = values.seed === undefined ? defaultSeed() : Number(values.seed);
const workers =
  values.workers === undefined ? Math.min(4, availableParallelism()) : Number(values.workers);
const plan = values.small
  ? { ...smallPlan(seed), workers }
  : {
      photos: photoSet.map((p) => p.file).filter(matches(values.photos)),
      attacks: allAttacks.filter((a) => a.name === 'none' || matches(values.attacks)(a.name)),
      falseDetectionImages: Number(values['false-detections'] ?? 1000),
      seed,
      workers,
      ...(values.trace === undefined ? {} : { traceFile: values.trace }),
    };
const evaluation = await evaluate(plan);
console.log(formatEvaluation(evaluation));
process.exitCode = evaluation.passed ? 0 : 1;
