// The worker time-stamps every signature when C2PA_TSA_URL is set (a local RFC 3161 authority,
// OpenSSL's, started here), and a job whose authority never answers is retried, then fails with
// its own code.
import { join } from 'node:path';
import { createPrismaClient, type PrismaClient } from '@hallmark/db';
import { createTestEnv, startServiceProcess } from '@hallmark/runtime/testing';
import { QUEUES } from '@hallmark/schemas';
import { readManifest } from '@hallmark/watermark-core';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTimeStampAuthority,
  type TimeStampAuthority,
} from '../../../packages/watermark-core/test/support/time-stamp-authority.ts';
import { runSigningJob } from './support/signing-job.ts';

const entry = join(import.meta.dirname, '../dist/main.js');

describe('the worker with a time-stamp authority', () => {
  let testEnv: Awaited<ReturnType<typeof createTestEnv>>;
  let prisma: PrismaClient;
  let queue: Queue;
  let tsa: TimeStampAuthority;

  beforeAll(async () => {
    testEnv = await createTestEnv('worker-tsa-test');
    prisma = createPrismaClient(testEnv.config.DATABASE_URL);
    queue = new Queue(QUEUES.watermark, {
      connection: { url: testEnv.config.REDIS_URL },
      prefix: testEnv.config.REDIS_PREFIX,
    });
    tsa = await startTimeStampAuthority();
  });

  afterAll(async () => {
    await queue?.close();
    await prisma?.$disconnect();
    await testEnv?.dispose();
    await tsa?.close();
  });

  it("signs jobs whose manifests carry the authority's time", async () => {
    const worker = startServiceProcess(entry, { ...testEnv.env, C2PA_TSA_URL: tsa.url });
    try {
      await worker.logged('worker ready');
      const before = tsa.answered();
      const { job, output } = await runSigningJob(prisma, queue, testEnv.config.HALLMARK_DATA_DIR);
      expect(job.status).toBe('success');
      expect(tsa.answered()).toBeGreaterThan(before);
      const summary = await readManifest(output ?? new Uint8Array());
      expect(summary.present && summary.signer?.signingTime).toMatch(/^\d{4}-\d\d-\d\dT/);
    } finally {
      await worker.stop();
    }
  });

  it('retries a job whose authority does not answer, then fails it with timestamp_unavailable', async () => {
    const gone = await startTimeStampAuthority();
    const url = gone.url;
    await gone.close();
    const worker = startServiceProcess(entry, {
      ...testEnv.env,
      C2PA_TSA_URL: url,
      JOB_ATTEMPTS: '2',
    });
    try {
      await worker.logged('worker ready');
      const { job } = await runSigningJob(prisma, queue, testEnv.config.HALLMARK_DATA_DIR, 2);
      expect(job.status).toBe('failed');
      expect(job.errorCode).toBe('timestamp_unavailable');
      expect(job.attempts).toBe(2);
    } finally {
      await worker.stop();
    }
  });
});
