// The end-to-end cost of the service around the watermark engines: 50 jobs on 1 MP photos through
// the real api and worker, against calling watermark-core directly on the same files with the same
// number of lanes.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type HallmarkClient, type WatermarkOptions, waitForJob } from '@hallmark/sdk';
import type { RunningService } from '../test/support/service.ts';
import { submitJob } from '../test/support/submit-job.ts';
import { inLanes } from './in-lanes.ts';

const photosDir = join(import.meta.dirname, '../../../fixtures/photos');
const PHOTOS = ['clock-1mp.jpg', 'wine-portrait-1mp.jpg'];

export interface JobsRound {
  readonly directMs: number;
  readonly serviceMs: number;
}

export interface JobsBenchResult {
  readonly jobs: number;
  /** One direct run and one service run per round. */
  readonly rounds: readonly JobsRound[];
  /** The median over the rounds of service time / direct time. */
  readonly medianRatio: number;
  /** Mean ms per job of each worker step, and of the wait in the queue, over every round. */
  readonly steps: Record<string, number>;
}

/**
 * `rounds` times: the 50 jobs directly and through the service (in alternating order), after
 * one uncounted round that warms both sides up. The ratio of each round is taken within the
 * round, so a noisy moment on the machine spoils one round, not the comparison.
 */
export async function benchJobs(
  service: RunningService,
  client: HallmarkClient,
  count: number,
  lanes: number,
  rounds: number,
): Promise<JobsBenchResult> {
  const photos = await Promise.all(PHOTOS.map((name) => readFile(join(photosDir, name))));
  const files = Array.from({ length: count }, (_, i) => photos[i % photos.length] as Buffer);

  const direct = await startDirectRunner(count);
  const options: WatermarkOptions = { watermarkType: ['invisible', 'c2pa'] };
  const results: JobsRound[] = [];
  const accepted: string[] = [];
  try {
    // Round 0 warms both sides up (JIT, caches, thread pools) and is not counted. The order
    // alternates (an even number of rounds balances it), so a machine that speeds up or slows
    // down over the bench favours neither side.
    for (let round = 0; round <= rounds; round += 1) {
      // Each run starts on a quiet machine: the other side's stragglers (log lines, the last
      // polls, PostgreSQL's autovacuum) would otherwise be charged to it.
      const serviceFirst = round % 2 === 1;
      const early = serviceFirst ? null : await settled(() => direct.run(lanes));
      const run = await settled(() => runThroughService(service, client, files, options));
      const directMs = early ?? (await settled(() => direct.run(lanes)));
      if (round > 0) {
        accepted.push(...run.ids);
        results.push({ directMs, serviceMs: run.ms });
      }
    }
  } finally {
    direct.stop();
  }

  const rows = await service.prisma.watermarkJob.findMany({ where: { id: { in: accepted } } });
  const steps: Record<string, number> = {};
  for (const row of rows) {
    const queued = (row.startedAt?.getTime() ?? 0) - row.createdAt.getTime();
    steps.queued = (steps.queued ?? 0) + queued / rows.length;
    for (const step of row.steps as Array<{ name: string; ms: number }>) {
      steps[step.name] = (steps[step.name] ?? 0) + step.ms / rows.length;
    }
  }
  const medianRatio = median(results.map((r) => r.serviceMs / r.directMs).sort((a, b) => a - b));
  return { jobs: count, rounds: results, medianRatio, steps };
}

/**
 * Uploads every file and asks for its job with 4 client lanes, then waits for the jobs in the
 * order they were sent, polling each once a second, as a batch client would (it does not poll
 * fifty jobs that cannot be done before the first). The time runs from the first upload to the
 * moment the last job finished (its row's finishedAt).
 */
async function runThroughService(
  service: RunningService,
  client: HallmarkClient,
  files: readonly Buffer[],
  options: WatermarkOptions,
): Promise<{ ms: number; ids: string[] }> {
  const start = Date.now();
  const ids: string[] = [];
  await inLanes(files, 4, async (bytes) => {
    ids.push((await submitJob(client, bytes, options)).requestId);
  });
  for (const id of ids) {
    await waitForJob(client, id, {
      minIntervalMs: 1_000,
      maxIntervalMs: 1_000,
      timeoutMs: 300_000,
    });
  }
  const last = await service.prisma.watermarkJob.aggregate({
    where: { id: { in: ids } },
    _max: { finishedAt: true },
  });
  return { ms: (last._max.finishedAt?.getTime() ?? Date.now()) - start, ids };
}

/** The direct baseline's process (direct-runner.ts), started once and asked for each round. */
async function startDirectRunner(count: number) {
  const child = fork(join(import.meta.dirname, 'direct-runner.ts'), [
    String(count),
    ...PHOTOS.map((name) => join(photosDir, name)),
  ]);
  // A baseline process that dies (a crash in the engine) fails the bench instead of hanging it.
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`the direct baseline process exited (code ${String(code)})`);
  });
  exited.catch(() => {
    // Observed by `next` while a run is awaited; after `stop` the exit is expected.
  });
  const next = async () => {
    const [message] = (await Promise.race([once(child, 'message'), exited])) as [
      { ms?: number; error?: string },
    ];
    if (message.error !== undefined) throw new Error(`direct run failed: ${message.error}`);
    return message.ms ?? 0;
  };
  await next();
  return {
    async run(lanes: number): Promise<number> {
      child.send({ lanes });
      return next();
    },
    stop(): void {
      child.disconnect();
    },
  };
}

const SETTLE_MS = 1_000;

async function settled<T>(run: () => Promise<T>): Promise<T> {
  await sleep(SETTLE_MS);
  return run();
}

function median(sorted: readonly number[]): number {
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export interface RecordStepsResult {
  readonly jobs: number;
  readonly watermarkMs: number;
  readonly ipfsMs: number;
  readonly nftMs: number;
}

/** IPFS store and NFT mint time per job, from the step timings the worker records. */
export async function benchRecordSteps(
  service: RunningService,
  client: HallmarkClient,
  count: number,
): Promise<RecordStepsResult> {
  const bytes = await readFile(join(photosDir, PHOTOS[0] ?? ''));
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const accepted = await submitJob(client, bytes, {
      watermarkType: ['invisible', 'c2pa'],
      mintNft: true,
      data: { author: `bench ${i}` },
    });
    ids.push(accepted.requestId);
  }
  await Promise.all(
    ids.map((id) =>
      waitForJob(client, id, { minIntervalMs: 50, maxIntervalMs: 100, timeoutMs: 300_000 }),
    ),
  );
  const rows = await service.prisma.watermarkJob.findMany({ where: { id: { in: ids } } });
  const total = { watermark: 0, ipfs: 0, nft: 0 };
  for (const row of rows) {
    for (const step of row.steps as Array<{ name: string; ms: number }>) {
      if (step.name === 'invisible' || step.name === 'c2pa') total.watermark += step.ms;
      if (step.name === 'ipfs') total.ipfs += step.ms;
      if (step.name === 'nft') total.nft += step.ms;
    }
  }
  return {
    jobs: rows.length,
    watermarkMs: total.watermark / rows.length,
    ipfsMs: total.ipfs / rows.length,
    nftMs: total.nft / rows.length,
  };
}
