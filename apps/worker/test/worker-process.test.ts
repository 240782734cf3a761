import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createPrismaClient, type PrismaClient } from '@hallmark/db';
import { createTestEnv, startServiceProcess, waitFor } from '@hallmark/runtime/testing';
import { QUEUES } from '@hallmark/schemas';
import { makeContentReference, REFERENCE_MAX_BYTES } from '@hallmark/watermark-core/content';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const entry = join(import.meta.dirname, '../dist/main.js');
const photo = join(import.meta.dirname, '../../../fixtures/photos/boats-0.6mp.jpg');

/** Starts like a JPEG, then is garbage: passes the upload's magic-byte check, fails to decode. */
const CORRUPT_JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  Buffer.alloc(2_000, 0x5a),
]);

function startWorker(env: Record<string, string>) {
  return startServiceProcess(entry, env);
}

/** A job row over a stored upload whose bytes are `bytes`. */
async function createJobRow(
  prisma: PrismaClient,
  dataDir: string,
  watermarkType: string[],
  bytes: Uint8Array = CORRUPT_JPEG,
) {
  const key = await prisma.apiKey.create({
    data: {
      name: 'test',
      prefix: Math.random().toString(16).slice(2, 10),
      hash: crypto.randomUUID(),
    },
  });
  const file = await prisma.file.create({
    data: {
      apiKeyId: key.id,
      fileName: 'photo.jpg',
      contentType: 'image/jpeg',
      status: 'uploaded',
      storageKey: `uploads/${crypto.randomUUID()}/photo.jpg`,
    },
  });
  await mkdir(join(dataDir, 'objects', dirname(file.storageKey)), { recursive: true });
  await writeFile(join(dataDir, 'objects', file.storageKey), bytes);
  return prisma.watermarkJob.create({
    data: { apiKeyId: key.id, fileId: file.id, options: { watermarkType } },
  });
}

/** Reads until `done` holds for what was read, within a hang bound; returns that value. */
async function readUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
): Promise<T> {
  let value!: T;
  await waitFor(async () => {
    value = await read();
    return done(value);
  }, what);
  return value;
}

describe('the worker process', () => {
  let testEnv: Awaited<ReturnType<typeof createTestEnv>>;
  let prisma: PrismaClient;
  let queue: Queue;

  beforeAll(async () => {
    testEnv = await createTestEnv('worker-test');
    prisma = createPrismaClient(testEnv.config.DATABASE_URL);
    queue = new Queue(QUEUES.watermark, {
      connection: { url: testEnv.config.REDIS_URL },
      prefix: testEnv.config.REDIS_PREFIX,
    });
  });

  afterAll(async () => {
    await queue?.close();
    await prisma?.$disconnect();
    await testEnv?.dispose();
  });

  it('takes jobs from Redis and fails a corrupt image at once with invalid_image', async () => {
    const worker = startWorker(testEnv.env);
    try {
      await worker.logged('worker ready');
      const row = await createJobRow(prisma, testEnv.config.HALLMARK_DATA_DIR, ['invisible']);
      await queue.add('watermark', { requestId: row.id }, { jobId: row.id });

      const finished = await readUntil(
        () => prisma.watermarkJob.findUniqueOrThrow({ where: { id: row.id } }),
        (job) => job.status === 'failed',
        'the job to fail',
      );
      // Permanent: no retry would decode these bytes, so the first attempt is the last.
      expect(finished.errorCode).toBe('invalid_image');
      expect(finished.attempts).toBe(1);
      expect(finished.outputStorageKey).toBeNull();
      expect(finished.finishedAt).not.toBeNull();

      // Running the same entry again is harmless: a finished row is skipped, not redone.
      await queue.add('watermark', { requestId: row.id }, { jobId: `${row.id}-again` });
      await waitFor(
        async () => (await queue.getJobState(`${row.id}-again`)) === 'completed',
        'the repeated entry to complete',
      );
      const again = await prisma.watermarkJob.findUniqueOrThrow({ where: { id: row.id } });
      expect(again.attempts).toBe(1);
    } finally {
      await worker.stop();
    }
  });

  it('records the content reference of a marked output with it, and none for an unmarked one', async () => {
    const worker = startWorker(testEnv.env);
    try {
      await worker.logged('worker ready');
      const bytes = new Uint8Array(await readFile(photo));
      const dataDir = testEnv.config.HALLMARK_DATA_DIR;
      const marked = await createJobRow(prisma, dataDir, ['invisible'], bytes);
      const signedOnly = await createJobRow(prisma, dataDir, ['c2pa'], bytes);
      await queue.addBulk(
        [marked, signedOnly].map((row) => ({
          name: 'watermark',
          data: { requestId: row.id },
          opts: { jobId: row.id },
        })),
      );
      const rows = await readUntil(
        () =>
          Promise.all(
            [marked, signedOnly].map((row) =>
              prisma.watermarkJob.findUniqueOrThrow({ where: { id: row.id } }),
            ),
          ),
        (jobs) => jobs.every((job) => job.status === 'success' || job.status === 'failed'),
        'both jobs to finish',
      );
      const [markedRow, signedRow] = rows;
      if (markedRow === undefined || signedRow === undefined) throw new Error('rows missing');
      expect([markedRow.status, signedRow.status]).toEqual(['success', 'success']);

      const reference = markedRow.contentReference;
      if (reference === null) throw new Error('the marked job has no content reference');
      // A JPEG (its magic bytes) within the size kept per job...
      expect(Array.from(reference.subarray(0, 3))).toEqual([0xff, 0xd8, 0xff]);
      expect(reference.length).toBeLessThanOrEqual(REFERENCE_MAX_BYTES);
      // ...made from the marked pixels, i.e. the recorded output (invisible only: the output is
      // exactly what the embedder returned), not from the upload.
      // (local storage keeps an object at its key under the data folder's `objects`)
      const output = await readFile(join(dataDir, 'objects', markedRow.outputStorageKey ?? ''));
      const maxPixels = testEnv.config.MAX_IMAGE_PIXELS;
      expect(Buffer.from(reference).equals(await makeContentReference(output, maxPixels))).toBe(
        true,
      );
      expect(Buffer.from(reference).equals(await makeContentReference(bytes, maxPixels))).toBe(
        false,
      );

      // Signed without the invisible mark: nothing to compare a copy's placement with.
      expect(signedRow.markPayload).toBeNull();
      expect(signedRow.outputStorageKey).not.toBeNull();
      expect(signedRow.contentReference).toBeNull();
    } finally {
      await worker.stop();
    }
  });

  it('stops on SIGTERM with exit 0 and leaves no job stuck as active', async () => {
    const worker = startWorker(testEnv.env);
    await worker.logged('worker ready');
    const rows = await Promise.all(
      [1, 2, 3].map(() => createJobRow(prisma, testEnv.config.HALLMARK_DATA_DIR, ['invisible'])),
    );
    await queue.addBulk(
      rows.map((row) => ({
        name: 'watermark',
        data: { requestId: row.id },
        opts: { jobId: row.id },
      })),
    );
    const code = await worker.stop('SIGTERM');

    expect(code).toBe(0);
    expect(worker.messages).toContain('stopped');
    expect(await queue.getActiveCount()).toBe(0);
    // Each row either finished or was never started: none is left half-done in `processing`.
    const states = await prisma.watermarkJob.findMany({
      where: { id: { in: rows.map((r) => r.id) } },
    });
    for (const state of states) expect(['pending', 'failed']).toContain(state.status);
  });

  it('refuses a bad environment naming the variable', async () => {
    const child = spawn(process.execPath, [entry], {
      env: { ...process.env, ...testEnv.env, REDIS_URL: 'http://nope', WORKER_CONCURRENCY: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    // 'close', not 'exit': it comes after stderr has ended, so all of it was read.
    const [code] = await once(child, 'close');
    expect(code).toBe(78);
    expect(stderr).toContain('REDIS_URL');
    expect(stderr).toContain('WORKER_CONCURRENCY');
  });
});
