// `pnpm --filter @hallmark/watermark-core eval:content [--photos REGEX] [--families REGEX]
// [--workers N] [--seed N] [--per-family N]`: marks every photo of fixtures/photos, then verifies
// honest copies, transplants of its mark and local edits of it as the service does, prints the
// tables (docs: the package README) and exits 1 when a target is missed.
import { writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { photoSet } from '../photo-set.ts';
import { contentReport } from './content-report.ts';
import type { CaseOutcome, ContentTask } from './content-task.ts';
import { HONEST_FAMILY_NAMES } from './honest-copies.ts';

const { values } = parseArgs({
  options: {
    photos: { type: 'string' },
    families: { type: 'string' },
    workers: { type: 'string' },
    seed: { type: 'string' },
    'per-family': { type: 'string' },
    transplants: { type: 'string' },
    'edits-per-kind': { type: 'string' },
  },
});
const pattern = (value: string | undefined) =>
  value === undefined ? null : new RegExp(value, 'i');
const photoPattern = pattern(values.photos);
const familyPattern = pattern(values.families);
const photos = photoSet.map((p) => p.file);
const chosen = photos.filter((file) => photoPattern === null || photoPattern.test(file));
// The crop family is drawn three more times: crops vary the most (area, aspect, position).
const families = [...HONEST_FAMILY_NAMES, 'crop', 'crop', 'crop'].filter(
  (family) => familyPattern === null || familyPattern.test(family),
);
const seed = Number(values.seed ?? 1);
// A photo's seed follows its place in the whole set, so a run of a few photos draws the same
// cases for them as the full run did.
const tasks: ContentTask[] = chosen.map((file) => ({
  file,
  others: photos.filter((other) => other !== file),
  seed: seed * 7919 + photos.indexOf(file),
  honestPerFamily: Number(values['per-family'] ?? 2),
  families,
  transplants: Number(values.transplants ?? 8),
  editsPerKind: Number(values['edits-per-kind'] ?? 2),
}));
const workers = Number(values.workers ?? Math.min(2, availableParallelism()));
const outcomes: CaseOutcome[] = [];
let next = 0;
let done = 0;
await Promise.all(
  Array.from({ length: Math.min(workers, tasks.length) }, async () => {
    const worker = new Worker(new URL('./content-worker.ts', import.meta.url));
    try {
      while (next < tasks.length) {
        const task = tasks[next++] as ContentTask;
        const result = await new Promise<CaseOutcome[]>((resolve, reject) => {
          worker.once(
            'message',
            (message: { ok: boolean; result?: CaseOutcome[]; error?: string }) =>
              message.ok ? resolve(message.result ?? []) : reject(new Error(message.error)),
          );
          worker.postMessage(task);
        });
        outcomes.push(...result);
        done++;
        process.stderr.write(`\r${done}/${tasks.length} photos`);
      }
    } finally {
      await worker.terminate();
    }
  }),
);
process.stderr.write('\n');
const full = photoPattern === null && familyPattern === null;
const report = contentReport(
  outcomes,
  full ? { honestCopies: 3000, transplants: 500 } : { honestCopies: 0, transplants: 0 },
);
console.log(report.text);
// For studying the measures behind the verdicts: every case's outcome as JSON.
const outcomesFile = process.env.CONTENT_EVAL_OUTCOMES;
if (outcomesFile !== undefined) await writeFile(outcomesFile, JSON.stringify(outcomes));
process.exitCode = report.passed ? 0 : 1;
