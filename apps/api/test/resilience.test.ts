import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { HANG_MS, waitFor } from '@hallmark/runtime/testing';
import { type HallmarkClient, waitForJob } from '@hallmark/sdk';
import { detectMark, payloadToHex } from '@hallmark/watermark-core';
import { describe, expect, it } from 'vitest';
import { freePort } from './support/free-port.ts';
import { startPrivateRedis } from './support/private-redis.ts';
import { type RunningService, startService } from './support/service.ts';
import { submitJob } from './support/submit-job.ts';

const photos = join(import.meta.dirname, '../../../fixtures/photos');

const submit = (client: HallmarkClient, photo: Uint8Array) =>
  submitJob(client, photo, { watermarkType: ['invisible'] });

/** Every file under the job's output folder, relative to `objects/`. */
async function outputsOf(service: RunningService, requestId: string): Promise<string[]> {
  const objects = join(service.env.HALLMARK_DATA_DIR ?? '', 'objects');
  const folder = join(objects, 'outputs', requestId);
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(objects, join(entry.parentPath, entry.name)))
    .sort();
}

describe('resilience', () => {
  it('a worker killed with SIGKILL mid-job: a new worker finishes it, with exactly one output', async () => {
    const healthPort = await freePort();
    // A lease longer than a loaded worker's event loop can stall between renewals (every third
    // of it): only the kill below may end a run, so the job's output is its second run's. The
    // killed run's lease is expired by hand instead of waited out.
    const service = await startService({
      JOB_LOCK_MS: '6000',
      WORKER_CONCURRENCY: '1',
      WORKER_HEALTH_PORT: String(healthPort),
    });
    try {
      const { client } = await service.newClient();
      const photo = await readFile(join(photos, 'sunset-12mp.jpg'));
      const accepted = await submit(client, photo);
      await waitFor(
        async () =>
          (
            await service.prisma.watermarkJob.findUniqueOrThrow({
              where: { id: accepted.requestId },
            })
          ).status === 'processing',
        'the job to start',
      );
      // The worker answers its health probe while it marks a 12 MP image: pixels are off its loop.
      const health = await fetch(`http://127.0.0.1:${healthPort}/health`);
      expect(health.status).toBe(200);
      const during = await service.prisma.watermarkJob.findUniqueOrThrow({
        where: { id: accepted.requestId },
      });
      expect(during.status).toBe('processing');

      expect(await service.worker.stop('SIGKILL')).toBeNull();
      await service.prisma.$executeRaw`
        UPDATE watermark_jobs SET lease_expires_at = now() - interval '1 second'
        WHERE id = ${accepted.requestId}::uuid`;
      service.worker = await service.startWorker();

      const job = await waitForJob(client, accepted.requestId, {
        timeoutMs: HANG_MS,
        minIntervalMs: 100,
      });
      expect(job.status).toBe('success');
      const row = await service.prisma.watermarkJob.findUniqueOrThrow({
        where: { id: accepted.requestId },
      });
      // The killed run stored nothing; the second run's output is the only file.
      expect(row.outputStorageKey).toBe(`outputs/${accepted.requestId}/2/photo.jpg`);
      expect(await outputsOf(service, accepted.requestId)).toEqual([row.outputStorageKey]);
      const output = await readFile(
        join(service.env.HALLMARK_DATA_DIR ?? '', 'objects', row.outputStorageKey ?? ''),
      );
      const detection = await detectMark(output);
      expect(detection.found && payloadToHex(detection.payload ?? 0n)).toBe(row.markPayload);
    } finally {
      await service.close();
    }
  });

  it('Redis gone for 10 s during a batch of 50 jobs: none is lost', async () => {
    const redis = await startPrivateRedis();
    const service = await startService({
      REDIS_URL: redis.url,
      RECONCILE_INTERVAL_MS: '1000',
      RECONCILE_AFTER_MS: '2000',
    });
    try {
      const { client } = await service.newClient();
      const photo = await readFile(join(photos, 'fig-0.25mp.jpg'));
      const accepted = [];
      for (let i = 0; i < 25; i += 1) accepted.push(await submit(client, photo));
      await redis.stop();
      // Accepted while Redis is away: the rows are the promise, the reconciler queues them later.
      for (let i = 0; i < 25; i += 1) accepted.push(await submit(client, photo));
      await new Promise((r) => setTimeout(r, 10_000));
      await redis.start();

      const ids = accepted.map((a) => a.requestId);
      await waitFor(
        async () =>
          (await service.prisma.watermarkJob.count({
            where: { id: { in: ids }, status: 'success' },
          })) === 50,
        'all 50 jobs to succeed',
      );
      const rows = await service.prisma.watermarkJob.findMany({ where: { id: { in: ids } } });
      for (const row of rows) {
        expect(await outputsOf(service, row.id)).toEqual([row.outputStorageKey]);
      }
    } finally {
      await service.close();
      await redis.stop();
    }
    // The outage alone is 10 s, then the 50 jobs get a hang-sized wait; with the service's start
    // and 50 submissions that is more than the default test timeout.
  }, 420_000);
});
