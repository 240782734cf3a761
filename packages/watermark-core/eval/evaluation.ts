// Runs an evaluation (photos x attacks, plus the false-detection check) on a pool of worker
// threads, or in-process when `workers` is 0, and checks the results against the targets.
import { randomBytes } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { payloadToHex } from '../src/invisible.ts';
import { type Attack, attacks } from './attacks.ts';
import { secondGenerationAttacks } from './attacks-v2.ts';
import { seededRandom } from './derived-images.ts';
import {
  type EvalResult,
  type EvalTask,
  type FalseDetectionResult,
  type PhotoResult,
  runTask,
} from './evaluate.ts';

export interface EvaluationPlan {
  readonly photos: readonly string[];
  readonly attacks: readonly Attack[];
  /** Random edits of unmarked photos checked for false detections (besides the originals). */
  readonly falseDetectionImages: number;
  readonly seed: number;
  readonly workers: number;
  /** Where every detection's search trace is appended (detection-trace.ts), if anywhere. */
  readonly traceFile?: string;
}

export const QUALITY_TARGETS = { meanPsnr: 40, minPsnr: 38, minSsim: 0.98 } as const;
/** The second generation's stricter quality targets: reported apart, not in the overall verdict. */
export const SECOND_GENERATION_QUALITY = { meanPsnr: 42, minPsnr: 40, minSsim: 0.985 } as const;

export interface AttackSummary {
  readonly attack: Attack;
  readonly recovered: number;
  readonly total: number;
  readonly rate: number;
  readonly passed: boolean;
}

export interface Evaluation {
  readonly plan: EvaluationPlan;
  readonly photos: readonly PhotoResult[];
  readonly attacks: readonly AttackSummary[];
  readonly quality: {
    meanPsnr: number;
    minPsnr: number;
    meanSsim: number;
    minSsim: number;
    passed: boolean;
  };
  readonly falseDetections: { checked: number; found: readonly string[]; passed: boolean };
  readonly seconds: number;
  readonly passed: boolean;
}

export function defaultSeed(): number {
  return randomBytes(4).readUInt32BE(0);
}

function tasksOf(plan: EvaluationPlan): EvalTask[] {
  const random = seededRandom(plan.seed);
  const randomHex = () =>
    Array.from({ length: 16 }, () => Math.floor(random() * 16).toString(16)).join('');
  const tasks: EvalTask[] = plan.photos.map((file, i) => ({
    kind: 'photo',
    file,
    payloadHex: payloadToHex(BigInt(`0x${randomHex()}`)),
    attackNames: plan.attacks.map((a) => a.name),
    seed: plan.seed + i,
    ...(plan.traceFile === undefined ? {} : { traceFile: plan.traceFile }),
  }));
  // The false-detection images are spread evenly over the photos.
  plan.photos.forEach((file, i) => {
    const derivatives =
      Math.floor(plan.falseDetectionImages / plan.photos.length) +
      (i < plan.falseDetectionImages % plan.photos.length ? 1 : 0);
    tasks.push({
      kind: 'false-detection',
      file,
      derivatives,
      seed: plan.seed * 31 + i + 1,
      ...(plan.traceFile === undefined ? {} : { traceFile: plan.traceFile }),
    });
  });
  return tasks;
}

async function runPool(tasks: EvalTask[], workers: number): Promise<EvalResult[]> {
  if (workers === 0) {
    const results: EvalResult[] = [];
    for (const task of tasks) results.push(await runTask(task));
    return results;
  }
  const queue = [...tasks];
  const results: EvalResult[] = [];
  const runWorker = () =>
    new Promise<void>((resolve, reject) => {
      const worker = new Worker(new URL('./eval-worker.ts', import.meta.url));
      const next = () => {
        const task = queue.shift();
        if (task === undefined) {
          worker.terminate().then(() => resolve(), reject);
          return;
        }
        worker.postMessage(task);
      };
      worker.on(
        'message',
        (message: { ok: true; result: EvalResult } | { ok: false; error: string }) => {
          if (!message.ok) {
            worker.terminate().finally(() => reject(new Error(message.error)));
            return;
          }
          results.push(message.result);
          next();
        },
      );
      worker.on('error', reject);
      next();
    });
  await Promise.all(Array.from({ length: Math.min(workers, tasks.length) }, runWorker));
  return results;
}

export async function evaluate(plan: EvaluationPlan): Promise<Evaluation> {
  const started = performance.now();
  const results = await runPool(tasksOf(plan), plan.workers);
  const photos = plan.photos
    .map((file) => results.find((r): r is PhotoResult => r.kind === 'photo' && r.file === file))
    .filter((r): r is PhotoResult => r !== undefined);
  const attackSummaries = plan.attacks.map((attack) => {
    const outcomes = photos.flatMap((p) => p.outcomes.filter((o) => o.attack === attack.name));
    const recovered = outcomes.filter((o) => o.recovered).length;
    const rate = outcomes.length > 0 ? (100 * recovered) / outcomes.length : 0;
    return { attack, recovered, total: outcomes.length, rate, passed: rate >= attack.target };
  });
  const psnrs = photos.map((p) => p.psnr);
  const ssims = photos.map((p) => p.ssim);
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const quality = {
    meanPsnr: mean(psnrs),
    minPsnr: Math.min(...psnrs),
    meanSsim: mean(ssims),
    minSsim: Math.min(...ssims),
    passed: false,
  };
  quality.passed =
    quality.meanPsnr >= QUALITY_TARGETS.meanPsnr &&
    quality.minPsnr >= QUALITY_TARGETS.minPsnr &&
    quality.minSsim >= QUALITY_TARGETS.minSsim;
  const checks = results.filter((r): r is FalseDetectionResult => r.kind === 'false-detection');
  const found = checks.flatMap((c) => c.falseDetections);
  const falseDetections = {
    checked: checks.reduce((n, c) => n + c.checked, 0),
    found,
    passed: found.length === 0,
  };
  return {
    plan,
    photos,
    attacks: attackSummaries,
    quality,
    falseDetections,
    seconds: (performance.now() - started) / 1000,
    passed:
      quality.passed &&
      falseDetections.passed &&
      attackSummaries.every((a) => a.passed || isSecondGeneration(a.attack)),
  };
}

export const allAttacks: readonly Attack[] = [...attacks, ...secondGenerationAttacks];

/** A second-generation attack (attacks-v2.ts): reported apart, not counted in the verdict. */
export function isSecondGeneration(attack: Attack): boolean {
  return secondGenerationAttacks.includes(attack);
}
