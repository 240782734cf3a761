import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { HANG_MS } from '@hallmark/runtime/testing';
import { JOB_ERROR_CODES } from '@hallmark/schemas';
import { WatermarkJobFailedError, waitForJob } from '@hallmark/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegPhoto } from './support/photos.ts';
import { type RunningService, startService } from './support/service.ts';
import { submitJob } from './support/submit-job.ts';

describe('what a failed job tells its client', () => {
  let service: RunningService;

  beforeAll(async () => {
    // One attempt: the failure below is final at once.
    service = await startService({ JOB_ATTEMPTS: '1' });
  });

  afterAll(async () => {
    await service?.close();
  });

  it('a PostgreSQL error inside a job reaches the log with the request id, never error.message', async () => {
    const { client } = await service.newClient();
    // The IPFS record step's table goes away under the worker: its next statement fails in pg.
    await service.prisma.$executeRawUnsafe('ALTER TABLE ipfs_records RENAME TO ipfs_records_away');
    try {
      const accepted = await submitJob(client, jpegPhoto, {
        watermarkType: ['invisible'],
        storeIpfs: true,
      });
      await expect(
        waitForJob(client, accepted.requestId, { timeoutMs: HANG_MS }),
      ).rejects.toThrowError(WatermarkJobFailedError);
      const job = await client.getWatermarkJob(accepted.requestId);
      expect(job.status).toBe('failed');
      const message = job.error?.message ?? '';
      expect(job.error?.code).toBe('internal_error');
      expect(message).toContain(JOB_ERROR_CODES.internal_error);
      for (const leak of ['ipfs_records', 'relation', 'does not exist', 'postgres', '/']) {
        expect(message).not.toContain(leak);
      }
      const logged = await service.worker.logged('watermark attempt failed');
      expect(logged).toMatchObject({ requestId: accepted.requestId });
      expect(String(logged.err)).toContain('ipfs_records');
    } finally {
      await service.prisma.$executeRawUnsafe(
        'ALTER TABLE ipfs_records_away RENAME TO ipfs_records',
      );
    }
  });

  it('a full disk fails the job with storage_full, leaves no temporary file, and the worker runs on', async () => {
    const { client } = await service.newClient();
    // The worker again, under a file size limit smaller than the output: its write fails as on
    // a full disk.
    await service.worker.stop();
    service.worker = await service.startWorker({ fileSizeLimitKb: 16 });
    const accepted = await submitJob(client, jpegPhoto, { watermarkType: ['c2pa'] });
    await expect(
      waitForJob(client, accepted.requestId, { timeoutMs: HANG_MS }),
    ).rejects.toThrowError(WatermarkJobFailedError);
    const job = await client.getWatermarkJob(accepted.requestId);
    expect(job.error).toEqual({
      code: 'storage_full',
      message: JOB_ERROR_CODES.storage_full,
    });
    const outputs = join(
      service.env.HALLMARK_DATA_DIR ?? '',
      'objects',
      'outputs',
      accepted.requestId,
    );
    const left = await readdir(outputs, { recursive: true, withFileTypes: true }).catch(() => []);
    expect(left.filter((entry) => entry.isFile()).map((entry) => entry.name)).toEqual([]);
    // The worker did not crash: with room again, the next job succeeds.
    expect(service.worker.child.exitCode).toBeNull();
    await service.worker.stop();
    service.worker = await service.startWorker();
    const next = await submitJob(client, jpegPhoto, { watermarkType: ['c2pa'] });
    expect((await waitForJob(client, next.requestId, { timeoutMs: HANG_MS })).status).toBe(
      'success',
    );
  });
});
