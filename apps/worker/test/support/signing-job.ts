import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { WatermarkJob } from '@hallmark/db';
import { waitFor } from '@hallmark/runtime/testing';
import { uploadedFile } from './uploaded-file.ts';
import type { WatermarkWorld } from './watermark-world.ts';

const photo = join(import.meta.dirname, '../../../../fixtures/photos/boats-0.6mp.jpg');

/**
 * Queues a C2PA-only job over a real photo (stored as local storage keeps it, under the data
 * folder's `objects`) and waits for it to succeed or fail; returns its row and, on success, its
 * output's bytes. `attempts` is the queue's budget for it, as JobQueues gives a job.
 */
export async function runSigningJob(
  world: WatermarkWorld,
  attempts = 1,
): Promise<{ readonly job: WatermarkJob; readonly output: Buffer | null }> {
  const { prisma, queue } = world;
  const dataDir = world.testEnv.config.HALLMARK_DATA_DIR;
  const upload = await uploadedFile(prisma);
  const objects = join(dataDir, 'objects');
  await mkdir(join(objects, dirname(upload.storageKey)), { recursive: true });
  await writeFile(join(objects, upload.storageKey), await readFile(photo));
  const row = await prisma.watermarkJob.create({
    data: {
      apiKeyId: upload.apiKeyId,
      fileId: upload.fileId,
      options: { watermarkType: ['c2pa'] },
    },
  });
  await queue.add(
    'watermark',
    { requestId: row.id },
    { jobId: row.id, attempts, backoff: { type: 'fixed', delay: 200 } },
  );
  let job = row;
  await waitFor(async () => {
    job = await prisma.watermarkJob.findUniqueOrThrow({ where: { id: row.id } });
    return job.status === 'success' || job.status === 'failed';
  }, 'the job to finish');
  const output =
    job.outputStorageKey === null ? null : await readFile(join(objects, job.outputStorageKey));
  return { job, output };
}
