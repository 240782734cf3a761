// The worker time-stamps every signature when C2PA_TSA_URL is set (a local RFC 3161 authority,
// OpenSSL's, started here), and a job whose authority never answers is retried, then fails with
// its own code.
import { join } from 'node:path';
import { startServiceProcess } from '@hallmark/runtime/testing';
import { readManifest } from '@hallmark/watermark-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTimeStampAuthority,
  type TimeStampAuthority,
} from '../../../packages/watermark-core/test/support/time-stamp-authority.ts';
import { runSigningJob } from './support/signing-job.ts';
import { type WatermarkWorld, watermarkWorld } from './support/watermark-world.ts';

const entry = join(import.meta.dirname, '../dist/main.js');

describe('the worker with a time-stamp authority', () => {
  let world: WatermarkWorld;
  let tsa: TimeStampAuthority;

  beforeAll(async () => {
    world = await watermarkWorld('worker-tsa-test');
    tsa = await startTimeStampAuthority();
  });

  afterAll(async () => {
    await world?.dispose();
    await tsa?.close();
  });

  it("signs jobs whose manifests carry the authority's time", async () => {
    const worker = startServiceProcess(entry, { ...world.testEnv.env, C2PA_TSA_URL: tsa.url });
    try {
      await worker.logged('worker ready');
      const before = tsa.answered();
      const { job, output } = await runSigningJob(world);
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
      ...world.testEnv.env,
      C2PA_TSA_URL: url,
      JOB_ATTEMPTS: '2',
    });
    try {
      await worker.logged('worker ready');
      const { job } = await runSigningJob(world, 2);
      expect(job.status).toBe('failed');
      expect(job.errorCode).toBe('timestamp_unavailable');
      expect(job.attempts).toBe(2);
    } finally {
      await worker.stop();
    }
  });
});
