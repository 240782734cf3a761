// `pnpm --filter @hallmark/api fault-run [--minutes N]` (default 10): the long form of the
// multi-node run (test/multi-node.e2e.test.ts is its short form in `pnpm test`). Two api
// processes and three workers share one PostgreSQL database, a Redis primary behind a Sentinel
// (with a replica), one data folder and a local chain; jobs of every kind arrive at a steady rate
// (watermarks, some with an IPFS record and some with an NFT, verifications, batches) with a
// webhook endpoint listening. Meanwhile workers and api processes are SIGKILLed at random and
// started again, and the Redis primary is killed twice (the Sentinel promotes the replica; the
// old primary comes back as the new replica). Afterwards it checks, and prints: every accepted
// job ended, each NFT job's token minted once (read from the chain), every output stored, every
// webhook event delivered (duplicates counted: deliveries are at least once), throughput,
// p50/p95 job time, and how long work took to resume after each fault. Build first.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ServiceProcess } from '@hallmark/runtime/testing';
import { waitFor } from '@hallmark/runtime/testing';
import { HallmarkClient } from '@hallmark/sdk';
import { mintedTokens } from '../test/support/raw-chain.ts';
import { startSentinelSet } from '../test/support/redis-sentinel.ts';
import { startService } from '../test/support/service.ts';
import { uploadJpeg } from '../test/support/submit-job.ts';
import { idsByOutcome, startReceiver } from '../test/support/webhook-receiver.ts';

const { values } = parseArgs({ options: { minutes: { type: 'string', default: '10' } } });
const MINUTES = Number(values.minutes);
const photo = await readFile(join(import.meta.dirname, '../../../fixtures/photos/fig-0.25mp.jpg'));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

const sentinels = await startSentinelSet();
const hooks = await startReceiver();
const service = await startService({
  REDIS_SENTINELS: `127.0.0.1:${sentinels.sentinelPort}`,
  REDIS_SENTINEL_NAME: sentinels.name,
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
  WEBHOOK_POLL_MS: '200',
  RECONCILE_INTERVAL_MS: '2000',
  RECONCILE_AFTER_MS: '5000',
  JOB_LOCK_MS: '10000',
  WORKER_CONCURRENCY: '1',
  RATE_LIMIT_PER_MINUTE: '1000000',
});
const apis: Array<{ process: ServiceProcess; baseUrl: string }> = [
  { process: service.api, baseUrl: service.baseUrl },
  await service.startApi(),
];
const workers: ServiceProcess[] = [
  service.worker,
  await service.startWorker(),
  await service.startWorker(),
];
const { apiKey } = await service.newClient();
const clientOf = (baseUrl: string) =>
  new HallmarkClient({ baseUrl, token: apiKey, retry: { retries: 5 } });
await clientOf(service.baseUrl).createWebhookEndpoint({ url: hooks.url });

const faults: Array<{ at: number; what: string }> = [];
const requestIds: string[] = [];
const verificationIds: string[] = [];
let refused = 0;
let redisPrimary = sentinels.primaryPort;
let redisReplica = sentinels.replicaPort;
const started = Date.now();
const end = started + MINUTES * 60_000;

async function submitOne(n: number): Promise<void> {
  const live = apis.filter(
    (api) => api.process.child.exitCode === null && api.process.child.signalCode === null,
  );
  const client = clientOf(pick(live.length > 0 ? live : apis).baseUrl);
  const fileId = await uploadJpeg(client, photo, `p${n}.jpg`);
  if (n % 7 === 3) {
    const { requestId } = await client.createVerification({ fileId }, { idempotencyKey: `v${n}` });
    verificationIds.push(requestId);
    return;
  }
  const accepted = await client.createWatermarkJob(
    {
      fileId,
      options: {
        watermarkType: n % 2 === 0 ? ['invisible', 'c2pa'] : ['c2pa'],
        storeIpfs: n % 5 === 0,
        ...(n % 6 === 0 ? { mintNft: true } : {}),
      },
    },
    { idempotencyKey: `w${n}` },
  );
  requestIds.push(accepted.requestId);
}

async function load(): Promise<void> {
  for (let n = 0; Date.now() < end; n++) {
    // A request refused while a process or Redis was away is the client's to send again: the
    // SDK retries 503s; what still fails is counted, not hidden.
    await submitOne(n).catch(() => {
      refused++;
    });
    await sleep(700);
  }
}

async function chaos(): Promise<void> {
  const failovers = [started + (MINUTES * 60_000) / 3, started + (2 * MINUTES * 60_000) / 3];
  while (Date.now() < end - 20_000) {
    await sleep(10_000 + Math.random() * 15_000);
    if (failovers[0] !== undefined && Date.now() > failovers[0]) {
      failovers.shift();
      faults.push({ at: Date.now(), what: `redis primary :${redisPrimary} killed` });
      sentinels.kill(redisPrimary);
      const promoted = redisReplica;
      await waitFor(
        async () => (await sentinels.primaryNow().catch(() => 0)) === promoted,
        'the promotion',
        { timeoutMs: 60_000 },
      );
      sentinels.startReplica(redisPrimary, promoted);
      [redisPrimary, redisReplica] = [promoted, redisPrimary];
      continue;
    }
    if (Math.random() < 0.25) {
      const index = Math.floor(Math.random() * apis.length);
      const api = apis[index];
      if (api === undefined) continue;
      faults.push({ at: Date.now(), what: `api ${index} killed` });
      await api.process.stop('SIGKILL');
      if (index === 0) {
        await service.restartApi();
        apis[0] = { process: service.api, baseUrl: service.baseUrl };
      } else {
        apis[index] = await service.startApi();
      }
    } else {
      const index = Math.floor(Math.random() * workers.length);
      faults.push({ at: Date.now(), what: `worker ${index} killed` });
      await workers[index]?.stop('SIGKILL');
      await sleep(2_000);
      workers[index] = await service.startWorker();
    }
  }
}

try {
  await Promise.all([load(), chaos()]);
  const submittedAt = Date.now();
  await waitFor(
    async () =>
      (await service.prisma.watermarkJob.count({
        where: { id: { in: requestIds }, status: { in: ['pending', 'processing'] } },
      })) +
        (await service.prisma.verification.count({
          where: { id: { in: verificationIds }, status: { in: ['pending', 'processing'] } },
        })) ===
      0,
    'every accepted job to end',
    { timeoutMs: 10 * 60_000, intervalMs: 1_000 },
  );
  const jobs = await service.prisma.watermarkJob.findMany({
    where: { id: { in: requestIds } },
    include: { nft: true },
  });
  const verifications = await service.prisma.verification.findMany({
    where: { id: { in: verificationIds } },
  });
  const mints = await mintedTokens(
    service.chain.options.rpcUrl,
    service.chain.options.contractAddress,
  );
  const tokens = jobs
    .filter((job) => job.nft?.tokenId != null)
    .map((job) => BigInt(job.nft?.tokenId ?? '0'));
  const mintedTwice = tokens.filter(
    (token) => mints.filter((minted) => minted === token).length !== 1,
  );
  let lost = 0;
  for (const job of jobs.filter((row) => row.status === 'success')) {
    const bytes = await readFile(
      join(service.env.HALLMARK_DATA_DIR ?? '', 'objects', job.outputStorageKey ?? ''),
    ).catch(() => null);
    if (bytes?.byteLength !== Number(job.outputSizeBytes)) lost++;
  }
  await sleep(15_000); // the last events' deliveries
  const events = await service.prisma.webhookEvent.findMany({ select: { id: true } });
  const delivered = new Map<string, number>();
  for (const delivery of hooks.received) {
    const id = String(delivery.headers['webhook-id']);
    delivered.set(id, (delivered.get(id) ?? 0) + 1);
  }
  const undelivered = events.filter((event) => !delivered.has(event.id)).length;
  const doubled = [...delivered.values()].filter((count) => count > 1).length;
  // A repeated delivery carries the same webhook-id, and receivers deduplicate on it. What must
  // never happen is one outcome told as two events (two ids): that a receiver cannot see through.
  const idsPerOutcome = idsByOutcome(hooks.received);
  const toldTwice = [...idsPerOutcome.values()].filter((ids) => ids.size > 1).length;
  const byStatus = (rows: Array<{ status: string; errorCode: string | null }>) =>
    Object.entries(
      rows.reduce<Record<string, number>>((counts, row) => {
        const key = row.status === 'failed' ? `failed ${row.errorCode}` : row.status;
        counts[key] = (counts[key] ?? 0) + 1;
        return counts;
      }, {}),
    )
      .map(([key, count]) => `${key} ${count}`)
      .join(', ');
  const times = jobs
    .filter((job) => job.finishedAt !== null)
    .map((job) => (job.finishedAt?.getTime() ?? 0) - job.createdAt.getTime())
    .sort((a, b) => a - b);
  const at = (share: number) =>
    times[Math.min(times.length - 1, Math.floor(share * times.length))] ?? 0;
  const finishes = jobs.map((job) => job.finishedAt?.getTime() ?? 0).sort((a, b) => a - b);
  console.log(`fault-run: ${MINUTES} min of load, 2 apis, 3 workers, Redis behind a Sentinel`);
  console.log('| measure | value |');
  console.log('|---|---|');
  console.log(`| watermark jobs accepted | ${jobs.length}: ${byStatus(jobs)} |`);
  console.log(`| verifications accepted | ${verifications.length}: ${byStatus(verifications)} |`);
  console.log(`| requests refused while a process or Redis was away | ${refused} |`);
  console.log(
    `| faults | ${faults.length}: ${faults.filter((f) => f.what.startsWith('worker')).length} worker kills, ${faults.filter((f) => f.what.startsWith('api')).length} api kills, ${faults.filter((f) => f.what.startsWith('redis')).length} Redis failovers |`,
  );
  console.log(
    `| NFTs minted / tokens minted more or less than once | ${tokens.length} / ${mintedTwice.length} |`,
  );
  console.log(`| outputs missing or not their recorded size | ${lost} |`);
  console.log(
    `| webhook events / undelivered / delivered more than once (same id) | ${events.length} / ${undelivered} / ${doubled} |`,
  );
  console.log(`| an outcome told as two events (two ids) | ${toldTwice} |`);
  for (const [outcome, ids] of idsPerOutcome) {
    if (ids.size > 1) console.log(`| told twice: ${outcome} | ${[...ids].join(', ')} |`);
  }
  console.log(
    `| throughput | ${(jobs.length / ((submittedAt - started) / 60_000)).toFixed(1)} jobs a minute |`,
  );
  console.log(
    `| job time, created to ended | p50 ${(at(0.5) / 1000).toFixed(1)} s, p95 ${(at(0.95) / 1000).toFixed(1)} s |`,
  );
  for (const fault of faults) {
    const next = finishes.find((time) => time > fault.at);
    console.log(
      `| ${fault.what} at +${((fault.at - started) / 1000).toFixed(0)} s | next job ended ${next === undefined ? 'never' : `${((next - fault.at) / 1000).toFixed(1)} s later`} |`,
    );
  }
  const failed = jobs.filter((job) => job.status === 'failed').length;
  if (failed > 0 || mintedTwice.length > 0 || lost > 0 || undelivered > 0 || toldTwice > 0) {
    process.exitCode = 1;
  }
} finally {
  await Promise.all(apis.slice(1).map((api) => api.process.stop('SIGKILL').catch(() => null)));
  await Promise.all(workers.slice(1).map((worker) => worker.stop('SIGKILL').catch(() => null)));
  await service.close();
  await hooks.close();
  await sentinels.stop();
}
