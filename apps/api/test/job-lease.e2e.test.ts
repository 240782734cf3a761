import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { HANG_MS, waitFor } from '@hallmark/runtime/testing';
import { QUEUES } from '@hallmark/schemas';
import { waitForJob } from '@hallmark/sdk';
import { Queue } from 'bullmq';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { rawRpc, TRANSFER_TOPIC } from './support/raw-chain.ts';
import { type RunningService, startService } from './support/service.ts';
import { submitJob } from './support/submit-job.ts';

// One job, one run: duplicate queue entries, a retry after the output was stored and
// a worker that keeps dying, each against the real processes, database, Redis and anvil chain.

const photos = join(import.meta.dirname, '../../../fixtures/photos');
const FROM_ZERO = `0x${'0'.repeat(64)}`;

const rpc = (service: RunningService, method: string, params: unknown[] = []) =>
  rawRpc(service.chain.options.rpcUrl, method, params);

/** Mints of the service's contract, read with a raw eth_getLogs: Transfer events from 0x0. */
async function mintLogs(service: RunningService): Promise<Array<{ transactionHash: string }>> {
  return (await rpc(service, 'eth_getLogs', [
    {
      address: service.chain.options.contractAddress,
      topics: [TRANSFER_TOPIC, FROM_ZERO],
      fromBlock: '0x0',
      toBlock: 'latest',
    },
  ])) as Array<{ transactionHash: string }>;
}

/** Every file under the job's output folder, relative to `objects/`. */
async function outputFiles(service: RunningService, requestId: string): Promise<string[]> {
  const objects = join(service.env.HALLMARK_DATA_DIR ?? '', 'objects');
  const folder = join(objects, 'outputs', requestId);
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(objects, join(entry.parentPath, entry.name)))
    .sort();
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('one job, one run', () => {
  it('five queue entries for one mintNft job on two workers: one success, one mint on chain', async () => {
    const service = await startService({ WORKER_CONCURRENCY: '2' });
    const queue = new Queue(QUEUES.watermark, {
      connection: { url: service.env.REDIS_URL ?? '' },
      prefix: service.env.REDIS_PREFIX ?? '',
    });
    try {
      const second = await service.startWorker();
      const { client } = await service.newClient();
      const before = (await mintLogs(service)).length;
      // Automine off: the first run waits for its mint while the duplicates arrive.
      await rpc(service, 'evm_setAutomine', [false]);
      const accepted = await submitJob(
        client,
        await readFile(join(photos, 'fig-0.25mp.jpg')),
        { watermarkType: ['invisible', 'c2pa'], mintNft: true },
        'fig.jpg',
      );
      // Entries the API would never add (their ids differ), as a redelivery or a re-queue would.
      await Promise.all(
        [1, 2, 3, 4].map((n) =>
          queue.add(
            QUEUES.watermark,
            { requestId: accepted.requestId },
            { jobId: `duplicate-${n}-${accepted.requestId}`, attempts: 5, backoff: 200 },
          ),
        ),
      );
      await waitFor(
        async () =>
          (await service.prisma.nft.findFirst({
            where: { jobId: accepted.requestId, txHash: { not: null } },
          })) !== null,
        'the mint to be sent',
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await rpc(service, 'evm_setAutomine', [true]);
      await rpc(service, 'evm_mine');

      const job = await waitForJob(client, accepted.requestId, {
        timeoutMs: HANG_MS,
        minIntervalMs: 100,
      });
      expect(job.status).toBe('success');
      // Every entry has run by now; none of them may have minted again or changed the job.
      await waitFor(
        async () => (await queue.getJobCounts('wait', 'active', 'delayed')).wait === 0,
        'the duplicates to drain',
      );
      await waitFor(async () => {
        const counts = await queue.getJobCounts('wait', 'active', 'delayed');
        return counts.active === 0 && counts.delayed === 0;
      }, 'the duplicates to finish');
      const logs = await mintLogs(service);
      expect(logs.length - before).toBe(1);
      const nft = await service.prisma.nft.findUniqueOrThrow({
        where: { jobId: accepted.requestId },
      });
      expect(logs.at(-1)?.transactionHash).toBe(nft.txHash);
      const row = await service.prisma.watermarkJob.findUniqueOrThrow({
        where: { id: accepted.requestId },
      });
      expect(row.status).toBe('success');
      expect(row.leaseToken).toBeNull();
      expect(await outputFiles(service, accepted.requestId)).toEqual([row.outputStorageKey ?? '']);
      await second.stop();
    } finally {
      await queue.close();
      await service.close();
    }
  });

  it('a retry after the output was stored keeps those bytes: the NFT image is the download', async () => {
    const service = await startService({ WORKER_CONCURRENCY: '1' });
    const minter = privateKeyToAccount(service.chain.options.minterKey as `0x${string}`).address;
    try {
      const { client } = await service.newClient();
      const funds = (await rpc(service, 'eth_getBalance', [minter, 'latest'])) as string;
      // An empty minting wallet: the NFT step fails (transiently) after the output is stored.
      await rpc(service, 'anvil_setBalance', [minter, '0x0']);
      const accepted = await submitJob(
        client,
        await readFile(join(photos, 'fig-0.25mp.jpg')),
        { watermarkType: ['invisible', 'c2pa'], mintNft: true },
        'fig.jpg',
      );
      await waitFor(async () => {
        const row = await service.prisma.watermarkJob.findUniqueOrThrow({
          where: { id: accepted.requestId },
        });
        return row.attempts >= 1 && row.leaseToken === null && row.outputStorageKey !== null;
      }, 'the first run to fail after storing its output');
      const first = await service.prisma.watermarkJob.findUniqueOrThrow({
        where: { id: accepted.requestId },
      });
      expect(first.status).toBe('processing');
      await rpc(service, 'anvil_setBalance', [minter, funds]);

      const job = await waitForJob(client, accepted.requestId, {
        timeoutMs: HANG_MS,
        minIntervalMs: 100,
      });
      expect(job.status).toBe('success');
      const row = await service.prisma.watermarkJob.findUniqueOrThrow({
        where: { id: accepted.requestId },
      });
      expect(row.attempts).toBeGreaterThanOrEqual(2);
      expect(row.outputStorageKey).toBe(first.outputStorageKey);
      expect(await outputFiles(service, accepted.requestId)).toEqual([first.outputStorageKey]);

      const downloaded = new Uint8Array(
        await (await fetch(job.watermarkedUrl ?? '')).arrayBuffer(),
      );
      expect(sha256(downloaded)).toBe(first.outputSha256);
      const image = job.nft?.metadata.image.replace('ipfs://', '') ?? '';
      const served = new Uint8Array(
        await (await fetch(`${service.baseUrl}/gateway/ipfs/${image}`)).arrayBuffer(),
      );
      expect(sha256(served)).toBe(sha256(downloaded));
    } finally {
      await service.close();
    }
  });

  it('a job whose worker dies on it three times fails with worker_crashed and is not retried', async () => {
    // A lease longer than a loaded worker's event loop can stall between renewals (every third
    // of it; the pixel work runs on other threads): only the kills below may end a run. Each
    // killed run's lease is expired by hand instead of waited out; the queue entry comes back
    // once BullMQ's lock (the same JOB_LOCK_MS) lapses, which is why it is not longer.
    const service = await startService({
      JOB_LOCK_MS: '6000',
      WORKER_CONCURRENCY: '1',
      RECONCILE_AFTER_MS: '1000',
      RECONCILE_INTERVAL_MS: '500',
    });
    try {
      const { client } = await service.newClient();
      const accepted = await submitJob(client, await readFile(join(photos, 'sunset-12mp.jpg')), {
        watermarkType: ['invisible'],
      });
      for (let run = 1; run <= 3; run += 1) {
        await waitFor(async () => {
          const row = await service.prisma.watermarkJob.findUniqueOrThrow({
            where: { id: accepted.requestId },
          });
          return row.attempts === run && row.leaseToken !== null;
        }, `run ${run} to claim the job`);
        expect(await service.worker.stop('SIGKILL')).toBeNull();
        await service.prisma.$executeRaw`
          UPDATE watermark_jobs SET lease_expires_at = now() - interval '1 second'
          WHERE id = ${accepted.requestId}::uuid`;
        service.worker = await service.startWorker();
      }
      const failed = await waitForJob(client, accepted.requestId, {
        timeoutMs: HANG_MS,
        minIntervalMs: 100,
      }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failed).toMatchObject({ code: 'worker_crashed' });
      const row = await service.prisma.watermarkJob.findUniqueOrThrow({
        where: { id: accepted.requestId },
      });
      expect(row).toMatchObject({
        status: 'failed',
        errorCode: 'worker_crashed',
        attempts: 3,
        crashes: 3,
        leaseToken: null,
      });
      expect(row.outputStorageKey).toBeNull();
    } finally {
      await service.close();
    }
    // Three kills, each waiting out BullMQ's lock and its stalled checks: several hang-sized waits.
  }, 420_000);
});
