// `pnpm --filter @hallmark/api capacity` (build first): the figures behind the capacity model in
// docs/deployment.md, measured on this machine.
//
// 1. One worker on a core of its own (`taskset`), everything else on the other: for each image
//    size and set of options, a backlog of jobs; its jobs per core per hour (from the finishes),
//    and the CPU each part spent per job (the worker, the api, PostgreSQL, Redis, the chain),
//    read from /proc.
// 2. One api process on a core of its own, the load generator on the other: what it answers per
//    second (a job's status, an in-request verification, a client's whole submission).
// 3. The check: a backlog of mixed jobs drained by three workers sharing both cores, its
//    throughput against the model's prediction from step 1.
//
// Options: --jobs N (per cell, default 8), --sizes 0.25,1 (a subset), --work 'c2pa;+ NFT' (a
// subset of the jobs, by label), --seconds S (each api load), --check-jobs N (each backlog).
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { type ServiceProcess, waitFor } from '@hallmark/runtime/testing';
import {
  HallmarkClient as Client,
  type HallmarkClient,
  type WatermarkOptions,
} from '@hallmark/sdk';
import { startService } from '../test/support/service.ts';
import { uploadJpeg } from '../test/support/submit-job.ts';
import {
  cpuSeconds,
  machineTicks,
  processesNamed,
  processTable,
  processTree,
  spentBetween,
} from './cpu-time.ts';
import { load } from './http-load.ts';
import { inLanes } from './in-lanes.ts';

const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '8' },
    sizes: { type: 'string', default: '0.25,1,4,12' },
    seconds: { type: 'string', default: '10' },
    'check-jobs': { type: 'string', default: '100' },
    work: { type: 'string' },
  },
});
/** The jobs to measure, by label (`--work 'c2pa;verification'`); all by default. */
const only = values.work?.split(';');
const JOBS = Number(values.jobs);
const SECONDS = Number(values.seconds);
const CHECK_JOBS = Number(values['check-jobs']);
const photos = join(import.meta.dirname, '../../../fixtures/photos');
const SIZES: Record<string, string> = {
  '0.25': 'fig-0.25mp.jpg',
  '1': 'clock-1mp.jpg',
  '4': 'dandelions-4mp.jpg',
  '12': 'sunset-12mp.jpg',
};
const MARKED: WatermarkOptions['watermarkType'] = ['invisible', 'c2pa'];
/** What a job asks for; `null` is a verification (of an output marked both ways). */
const WORK: ReadonlyArray<{ label: string; options: WatermarkOptions | null }> = [
  { label: 'c2pa', options: { watermarkType: ['c2pa'] } },
  { label: 'invisible', options: { watermarkType: ['invisible'] } },
  { label: 'invisible + c2pa', options: { watermarkType: MARKED } },
  { label: '+ IPFS record', options: { watermarkType: MARKED, storeIpfs: true } },
  { label: '+ NFT', options: { watermarkType: MARKED, mintNft: true } },
  { label: 'verification', options: null },
  { label: 'verification, unmarked', options: null },
];

/** How the check's workers run: the recommended one per machine, and the fault run's three. */
const TOPOLOGIES = [
  {
    label: 'one worker, WORKER_CONCURRENCY=2 (the default on 2 cores)',
    workers: 1,
    concurrency: '2',
  },
  { label: 'three workers, WORKER_CONCURRENCY=1 (the fault run)', workers: 3, concurrency: '1' },
] as const;

interface Parts {
  worker: number;
  api: number;
  postgres: number;
  redis: number;
  chain: number;
}
interface Cell {
  size: string;
  work: string;
  perCoreHour: number;
  /** CPU seconds per job, by part. */
  cpu: Parts;
  steps: Record<string, number>;
}

/** No limits: the bench measures the service, not its rate limits and quotas. */
const unlimited = {
  RATE_LIMIT_PER_MINUTE: '1000000000',
  RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000000000',
  QUOTA_MINTS_PER_DAY: '1000000',
  API_PROCESSES: '1',
  WORKER_CONCURRENCY: '1',
};
const pinSelf = (cpus: string) =>
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });

const service = await startService(unlimited);
/** Processes started here, beyond the service's own api and worker. */
const extra: ServiceProcess[] = [];
try {
  // The unpinned worker and api of startService stay idle: the pinned ones do the work.
  await service.worker.stop();
  const api = await service.startApi({ cpus: '0' });
  extra.push(api.process);
  pinSelf('0');
  const { apiKey } = await service.newClient();
  const client = new Client({ baseUrl: api.baseUrl, token: apiKey });
  let worker = await service.startWorker({ cpus: '1' });
  extra.push(worker);

  type Reading = Record<keyof Parts, Map<number, number>>;
  const parts = (): Reading => {
    const table = processTable();
    return {
      worker: cpuSeconds(processTree(worker.child.pid ?? 0, table)),
      api: cpuSeconds(processTree(api.process.child.pid ?? 0, table)),
      postgres: cpuSeconds(processesNamed('postgres', table)),
      redis: cpuSeconds(processesNamed('redis-server', table)),
      chain: cpuSeconds(processesNamed('anvil', table)),
    };
  };

  const cells: Cell[] = [];
  const outputs = new Map<string, Buffer>();
  for (const size of values.sizes.split(',')) {
    const file = SIZES[size];
    if (file === undefined) throw new Error(`no photo of ${size} MP; sizes: ${Object.keys(SIZES)}`);
    const original = await readFile(join(photos, file));
    for (const work of WORK.filter((each) => only === undefined || only.includes(each.label))) {
      // A verification reads a marked output of the size (the 'invisible + c2pa' job's) or,
      // unmarked, the photo itself: every window of it is searched.
      const bytes =
        work.options === null && work.label === 'verification' ? outputs.get(size) : original;
      if (bytes === undefined) {
        throw new Error("a marked verification needs the size's 'invisible + c2pa' job first");
      }
      const [warmUp = '', ...fileIds] = await uploadAll(client, bytes, JOBS + 1);
      const submit = async (fileId: string) =>
        (work.options === null
          ? await client.createVerification({ fileId })
          : await client.createWatermarkJob({ fileId, options: work.options })
        ).requestId;
      // One job first, uncounted: the first of a kind loads what the rest reuse.
      await ended([await submit(warmUp)], work.options === null);
      const before = parts();
      const ids: string[] = [];
      for (const fileId of fileIds) ids.push(await submit(fileId));
      const rows = await ended(ids, work.options === null);
      const after = parts();
      const finishes = rows.map((row) => row.finishedAt).sort((a, b) => a - b);
      const span = (finishes.at(-1) ?? 0) - (finishes[0] ?? 0);
      const cell: Cell = {
        size: `${size} MP`,
        work: work.label,
        perCoreHour: ((rows.length - 1) / span) * 3_600_000,
        cpu: {
          worker: spentBetween(before.worker, after.worker) / ids.length,
          api: spentBetween(before.api, after.api) / ids.length,
          postgres: spentBetween(before.postgres, after.postgres) / ids.length,
          redis: spentBetween(before.redis, after.redis) / ids.length,
          chain: spentBetween(before.chain, after.chain) / ids.length,
        },
        steps: meanSteps(rows),
      };
      cells.push(cell);
      console.error(`${cell.size} ${cell.work}: ${cell.perCoreHour.toFixed(0)} jobs/core/hour`);
      if (work.label === 'invisible + c2pa') outputs.set(size, await outputOf(ids[0] ?? ''));
    }
  }
  printCells(cells);
  // What bounds the chain's part: the gas each mint takes, against a block's gas limit.
  const gas = await service.prisma.nft.aggregate({
    where: { gasUsed: { not: null } },
    _avg: { gasUsed: true },
    _count: { gasUsed: true },
  });
  if (gas._count.gasUsed > 0) {
    console.log(
      `\nGas per mint: ${Number(gas._avg.gasUsed ?? 0).toFixed(0)} (mean of ${gas._count.gasUsed} mints)`,
    );
  }

  // 2. One api process: the worker stops (a submission's job stays queued), the load generator
  // moves to the other core. A finished job first, for the status reads.
  const [statusFile = ''] = await uploadAll(
    client,
    await readFile(join(photos, SIZES['0.25'] ?? '')),
    1,
  );
  const done = await client.createWatermarkJob({
    fileId: statusFile,
    options: { watermarkType: ['c2pa'] },
  });
  await ended([done.requestId], false);
  await worker.stop();
  pinSelf('1');
  api.process.unfollow();
  const bearer = { authorization: `Bearer ${apiKey}` };
  const apiCpu = () => cpuSeconds(processTree(api.process.child.pid ?? 0));
  const rows: string[][] = [];
  const measure = async (name: string, run: () => Promise<number>) => {
    const before = apiCpu();
    const started = performance.now();
    const count = await run();
    const seconds = (performance.now() - started) / 1000;
    rows.push([
      name,
      (count / seconds).toFixed(1),
      ((spentBetween(before, apiCpu()) / count) * 1000).toFixed(1),
    ]);
  };
  await measure('GET /watermark/{requestId} (a finished job)', async () => {
    const result = await load({
      url: `${api.baseUrl}/watermark/${done.requestId}`,
      method: 'GET',
      headers: bearer,
      seconds: SECONDS,
      connections: 20,
    });
    return result.requestsPerSecond * SECONDS;
  });
  const verifications = [
    ...['1', '12'].map((size) => ({ name: `a marked ${size} MP JPEG`, bytes: outputs.get(size) })),
    { name: 'an unmarked 1 MP JPEG', bytes: await readFile(join(photos, SIZES['1'] ?? '')) },
  ];
  for (const { name, bytes } of verifications) {
    if (bytes === undefined) continue;
    await measure(`POST /verify/file, ${name}`, async () => {
      const result = await load({
        url: `${api.baseUrl}/verify/file`,
        method: 'POST',
        headers: { ...bearer, 'content-type': 'image/jpeg' },
        body: bytes,
        seconds: SECONDS,
        connections: 4,
      });
      if (result.non2xx > 0) throw new Error(`${result.non2xx} verifications refused`);
      return result.requestsPerSecond * SECONDS;
    });
  }
  const photo = await readFile(join(photos, SIZES['1'] ?? ''));
  // A C2PA job: the submissions stay queued until the check, which runs them first.
  await measure('a submission: upload link, PUT 1 MP, POST /watermark', async () => {
    let count = 0;
    const end = Date.now() + SECONDS * 1000;
    await inLanes(
      Array.from({ length: 8 }, () => null),
      8,
      async () => {
        while (Date.now() < end) {
          const [fileId] = await uploadAll(client, photo, 1);
          await client.createWatermarkJob({
            fileId: fileId ?? '',
            options: { watermarkType: ['c2pa'] },
          });
          count++;
        }
      },
    );
    return count;
  });
  console.log('\nOne api process on one core (the load generator on the other)\n');
  console.log('| request | answered per second | api CPU ms each |');
  console.log('|---|--:|--:|');
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);

  // 3. The check, on both cores and the service's own (unpinned) api: the submissions above are
  // run first, out of the count; then mixed backlogs.
  pinSelf('0,1');
  await api.process.stop();
  worker = await service.startWorker();
  extra.push(worker);
  await waitFor(
    async () =>
      (await service.prisma.watermarkJob.count({
        where: { status: { in: ['pending', 'processing'] } },
      })) === 0,
    'the queued submissions to run',
    { timeoutMs: 30 * 60_000, intervalMs: 1_000 },
  );
  await worker.stop();
  const mix = WORK.filter(
    (work) => work.label !== 'invisible' && work.label !== 'verification, unmarked',
  );
  const small = cells.filter(
    (cell) => cell.size === '0.25 MP' && mix.some((work) => work.label === cell.work),
  );
  const marked = outputs.get('0.25');
  const unpinned = new Client({ baseUrl: service.baseUrl, token: apiKey });
  if (small.length === mix.length && marked !== undefined)
    await check(unpinned, marked, mix, small);
} finally {
  await Promise.all(extra.map((child) => child.stop('SIGKILL')));
  await service.close();
}

async function check(
  client: HallmarkClient,
  marked: Buffer,
  mix: typeof WORK,
  measured: readonly Cell[],
): Promise<void> {
  // A job holds its worker's core for 1 / (its per-core rate) seconds, waits included, and
  // takes CPU from the shared parts besides.
  const mean = (part: (cell: Cell) => number) =>
    measured.reduce((sum, cell) => sum + part(cell), 0) / measured.length;
  const model: Record<string, number> = {
    workers: mean((cell) => 3600 / cell.perCoreHour),
    api: mean((cell) => cell.cpu.api),
    PostgreSQL: mean((cell) => cell.cpu.postgres),
    Redis: mean((cell) => cell.cpu.redis),
    chain: mean((cell) => cell.cpu.chain),
    'this bench (the clients)': 0,
  };
  const cost = Object.values(model).reduce((sum, value) => sum + value, 0);
  const predicted = (2 * 3600) / cost;
  console.log('\nThe check: backlogs of 0.25 MP jobs in equal shares of');
  console.log(`${mix.map((work) => work.label).join(', ')}, on 2 cores with the api\n`);
  const runs = [];
  for (const topology of TOPOLOGIES) runs.push(await drain(client, marked, mix, topology));
  console.log(`| | ${TOPOLOGIES.map((topology) => topology.label).join(' | ')} |`);
  console.log(`|---|${TOPOLOGIES.map(() => '--:').join('|')}|`);
  const row = (name: string, values: readonly string[]) =>
    console.log(`| ${name} | ${values.join(' | ')} |`);
  row(
    'predicted, jobs per hour (2 cores / core s per job)',
    runs.map(() => predicted.toFixed(0)),
  );
  row(
    'measured, jobs per hour (middle 60 % of the finishes)',
    runs.map((run) => run.perHour.toFixed(0)),
  );
  row(
    'measured / predicted',
    runs.map((run) => (run.perHour / predicted).toFixed(2)),
  );
  row(
    "the cores' busy share",
    runs.map((run) => `${(run.busy * 100).toFixed(0)} %`),
  );
  for (const [part, modelled] of Object.entries(model)) {
    row(
      `CPU ms per job: ${part} (model ${(modelled * 1000).toFixed(0)})`,
      runs.map((run) => ((run.cpu[part] ?? 0) * 1000).toFixed(0)),
    );
  }
}

/**
 * Uploads a backlog's files, starts the workers, then asks for every job at once: the backlog
 * is drained by running workers, not by workers still starting. Measures the finishes and what
 * each part of the machine spent per job meanwhile.
 */
async function drain(
  client: HallmarkClient,
  marked: Buffer,
  mix: typeof WORK,
  topology: (typeof TOPOLOGIES)[number],
): Promise<{ perHour: number; busy: number; cpu: Record<string, number> }> {
  const photo = await readFile(join(photos, SIZES['0.25'] ?? ''));
  const files = await Promise.all(
    Array.from({ length: CHECK_JOBS }, async (_, n) => {
      const work = mix[n % mix.length];
      const [fileId = ''] = await uploadAll(client, work?.options === null ? marked : photo, 1);
      return { fileId, options: work?.options ?? null };
    }),
  );
  const workers = await Promise.all(
    Array.from({ length: topology.workers }, () =>
      service.startWorker({ env: { WORKER_CONCURRENCY: topology.concurrency } }),
    ),
  );
  extra.push(...workers);
  await sleep(3_000);
  const reading = () => {
    const table = processTable();
    return {
      workers: cpuSeconds(workers.flatMap((worker) => processTree(worker.child.pid ?? 0, table))),
      api: cpuSeconds(processTree(service.api.child.pid ?? 0, table)),
      PostgreSQL: cpuSeconds(processesNamed('postgres', table)),
      Redis: cpuSeconds(processesNamed('redis-server', table)),
      chain: cpuSeconds(processesNamed('anvil', table)),
      'this bench (the clients)': cpuSeconds([process.pid]),
    };
  };
  const before = Date.now();
  const ticksBefore = machineTicks();
  const cpuBefore = reading();
  const ids: Array<{ id: string; verification: boolean }> = [];
  await inLanes(files, 4, async ({ fileId, options }) => {
    const accepted =
      options === null
        ? await client.createVerification({ fileId })
        : await client.createWatermarkJob({ fileId, options });
    ids.push({ id: accepted.requestId, verification: options === null });
  });
  const watermarks = await ended(
    ids.filter((job) => !job.verification).map((job) => job.id),
    false,
  );
  const verifications = await ended(
    ids.filter((job) => job.verification).map((job) => job.id),
    true,
  );
  const ticksAfter = machineTicks();
  const cpuAfter = reading();
  await Promise.all(workers.map((worker) => worker.stop()));
  const finishes = [...watermarks, ...verifications]
    .map((row) => row.finishedAt)
    .filter((at) => at > before)
    .sort((a, b) => a - b);
  // The middle 60 % of finishes: the first jobs' start and the last stragglers are left out.
  const from = Math.floor(finishes.length * 0.2);
  const to = Math.floor(finishes.length * 0.8);
  const cpu: Record<string, number> = {};
  for (const part of Object.keys(cpuAfter) as Array<keyof typeof cpuAfter>) {
    cpu[part] = spentBetween(cpuBefore[part], cpuAfter[part]) / ids.length;
  }
  return {
    perHour: ((to - from) / ((finishes[to] ?? 0) - (finishes[from] ?? 0))) * 3_600_000,
    busy: (ticksAfter.busy - ticksBefore.busy) / (ticksAfter.total - ticksBefore.total),
    cpu,
  };
}

async function uploadAll(client: HallmarkClient, bytes: Buffer, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(await uploadJpeg(client, bytes, `p${i}.jpg`));
  }
  return ids;
}

interface Ended {
  finishedAt: number;
  steps: ReadonlyArray<{ name: string; ms: number }>;
}

/** Waits for every job (or verification) to end; each must have succeeded. */
async function ended(ids: readonly string[], verification: boolean): Promise<Ended[]> {
  const where = {
    id: { in: [...ids] },
    status: { in: ['pending' as const, 'processing' as const] },
  };
  await waitFor(
    async () =>
      (verification
        ? await service.prisma.verification.count({ where })
        : await service.prisma.watermarkJob.count({ where })) === 0,
    'the jobs to end',
    { timeoutMs: 30 * 60_000, intervalMs: 200 },
  );
  const rows = verification
    ? (await service.prisma.verification.findMany({ where: { id: { in: [...ids] } } })).map(
        (row) => ({
          status: row.status,
          errorCode: row.errorCode,
          finishedAt: row.finishedAt,
          steps: [],
        }),
      )
    : await service.prisma.watermarkJob.findMany({ where: { id: { in: [...ids] } } });
  const failed = rows.filter((row) => row.status !== 'success');
  if (failed.length > 0) {
    throw new Error(
      `${failed.length} jobs failed: ${failed.map((row) => row.errorCode).join(', ')}`,
    );
  }
  return rows.map((row) => ({
    finishedAt: row.finishedAt?.getTime() ?? 0,
    steps: row.steps as Ended['steps'],
  }));
}

function meanSteps(rows: readonly Ended[]): Record<string, number> {
  const steps: Record<string, number> = {};
  for (const row of rows) {
    for (const step of row.steps)
      steps[step.name] = (steps[step.name] ?? 0) + step.ms / rows.length;
  }
  return steps;
}

async function outputOf(requestId: string): Promise<Buffer> {
  const job = await service.prisma.watermarkJob.findUniqueOrThrow({ where: { id: requestId } });
  return readFile(join(service.env.HALLMARK_DATA_DIR ?? '', 'objects', job.outputStorageKey ?? ''));
}

function printCells(cells: readonly Cell[]): void {
  const ms = (seconds: number) => (seconds * 1000).toFixed(0);
  console.log('\nOne worker on one core (WORKER_CONCURRENCY=1), the rest on the other\n');
  console.log(
    '| image | job | jobs per core per hour | worker CPU ms | api | PostgreSQL | Redis | chain | steps (ms, wall) |',
  );
  console.log('|---|---|--:|--:|--:|--:|--:|--:|---|');
  for (const cell of cells) {
    const steps = Object.entries(cell.steps)
      .map(([name, value]) => `${name} ${value.toFixed(0)}`)
      .join(', ');
    console.log(
      `| ${cell.size} | ${cell.work} | ${cell.perCoreHour.toFixed(0)} | ${ms(cell.cpu.worker)} | ${ms(cell.cpu.api)} | ${ms(cell.cpu.postgres)} | ${ms(cell.cpu.redis)} | ${ms(cell.cpu.chain)} | ${steps} |`,
    );
  }
}
