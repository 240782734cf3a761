import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createPrismaClient, type PrismaClient } from '@hallmark/db';
import { PrismaService } from '@hallmark/runtime';
import { createTestEnv } from '@hallmark/runtime/testing';
import { LinkSigner, LocalStorage, type ObjectStorage } from '@hallmark/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RetentionSweeper } from '../src/lifecycle/retention-sweeper.ts';
import { uploadedFile } from './support/uploaded-file.ts';

const DAY_MS = 86_400_000;

/** `storage` with its `delete` replaced; every other call goes to `storage` itself. */
function withDelete(storage: ObjectStorage, remove: (key: string) => Promise<void>): ObjectStorage {
  return new Proxy(storage, {
    get(target, property) {
      if (property === 'delete') return remove;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * The sweeper against the real database and local storage, with the storage's `delete` wrapped:
 * to look at the rows, through another connection, at the moment an object goes; and to fail,
 * as a process that dies between marking rows and removing their objects would.
 */
describe('the retention sweep marks rows before it removes objects', () => {
  let testEnv: Awaited<ReturnType<typeof createTestEnv>>;
  let prisma: PrismaService;
  /** Another connection: it sees only what the sweep has committed. */
  let observer: PrismaClient;
  let storage: LocalStorage;
  let objects: string;

  beforeAll(async () => {
    testEnv = await createTestEnv('worker-test', {
      RETENTION_INPUT_DAYS: '7',
      RETENTION_OUTPUT_DAYS: '30',
    });
    prisma = new PrismaService(testEnv.config, testEnv.logger);
    observer = createPrismaClient(testEnv.config.DATABASE_URL);
    objects = join(testEnv.config.HALLMARK_DATA_DIR, 'objects');
    storage = new LocalStorage({
      root: objects,
      baseUrl: 'http://127.0.0.1:1',
      signer: new LinkSigner(randomBytes(32)),
    });
  });

  afterAll(async () => {
    await observer?.$disconnect();
    await prisma?.onApplicationShutdown();
    await testEnv?.dispose();
  });

  const sweeper = (store: ObjectStorage) =>
    new RetentionSweeper(testEnv.config, testEnv.logger, store, prisma);

  async function stored(key: string): Promise<void> {
    await mkdir(join(objects, dirname(key)), { recursive: true });
    await writeFile(join(objects, key), 'bytes');
  }

  /** A file uploaded and a job on it ended `days` ago, with its output stored. */
  async function finishedJob(days: number) {
    const ended = new Date(Date.now() - days * DAY_MS);
    const file = await uploadedFile(observer, ended);
    const job = await observer.watermarkJob.create({
      data: {
        apiKeyId: file.apiKeyId,
        fileId: file.fileId,
        options: { watermarkType: ['c2pa'] },
        status: 'success',
        finishedAt: ended,
        outputStorageKey: `outputs/${randomUUID()}/photo.jpg`,
        outputSizeBytes: 5,
      },
    });
    await stored(file.storageKey);
    await stored(job.outputStorageKey ?? '');
    return {
      fileId: file.fileId,
      jobId: job.id,
      input: file.storageKey,
      output: job.outputStorageKey ?? '',
    };
  }

  async function marks(jobId: string) {
    const job = await observer.watermarkJob.findUniqueOrThrow({
      where: { id: jobId },
      include: { file: true },
    });
    return { input: job.file.deletedAt !== null, output: job.outputDeletedAt !== null };
  }

  it('every object it removes belongs to a row already marked deleted (committed)', async () => {
    const due = await finishedJob(40);
    const kept = await finishedJob(0);
    const seen: Array<{ key: string; marked: boolean }> = [];
    const watching = withDelete(storage, async (key) => {
      const file = await observer.file.findFirst({ where: { storageKey: key } });
      const job = await observer.watermarkJob.findFirst({ where: { outputStorageKey: key } });
      seen.push({
        key,
        marked: file !== null ? file.deletedAt !== null : job?.outputDeletedAt != null,
      });
      await storage.delete(key);
    });

    const report = await sweeper(watching).sweepOnce();

    expect(seen.map((entry) => entry.key).sort()).toEqual([due.input, due.output].sort());
    expect(seen.every((entry) => entry.marked)).toBe(true);
    expect(report).toMatchObject({ inputs: 1, outputs: 1, removedObjects: 2 });
    expect(await marks(due.jobId)).toEqual({ input: true, output: true });
    expect(existsSync(join(objects, due.input))).toBe(false);
    expect(existsSync(join(objects, due.output))).toBe(false);
    expect(await marks(kept.jobId)).toEqual({ input: false, output: false });
    expect(existsSync(join(objects, kept.input))).toBe(true);
  });

  it('a pass that fails after marking leaves its objects queued; the next pass removes them', async () => {
    const due = await finishedJob(40);
    const failing = withDelete(storage, async () => {
      throw new Error('storage unreachable');
    });

    await expect(sweeper(failing).sweepOnce()).rejects.toThrow('storage unreachable');
    // The rows say deleted (the API answers 410, never serves a missing object); the bytes wait.
    expect(await marks(due.jobId)).toEqual({ input: true, output: true });
    expect(existsSync(join(objects, due.input))).toBe(true);
    expect(await observer.storageDeletion.count()).toBe(2);

    const report = await sweeper(storage).sweepOnce();
    expect(report).toMatchObject({ inputs: 0, outputs: 0, removedObjects: 2 });
    expect(existsSync(join(objects, due.input))).toBe(false);
    expect(existsSync(join(objects, due.output))).toBe(false);
    expect(await observer.storageDeletion.count()).toBe(0);
  });

  it("removes the scratch folders of runs that died, never a live run's", async () => {
    const root = join(testEnv.config.HALLMARK_DATA_DIR, 'tmp', 'media');
    const dead = join(root, 'run-dead');
    const live = join(root, 'run-live');
    for (const folder of [dead, live]) {
      await mkdir(folder, { recursive: true });
      await writeFile(join(folder, 'input'), randomBytes(1024));
    }
    const longAgo = new Date(Date.now() - testEnv.config.JOB_TIMEOUT_MS - 5 * 60_000);
    await utimes(dead, longAgo, longAgo);

    const report = await sweeper(storage).sweepOnce();
    expect(report.scratchFolders).toBe(1);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(join(live, 'input'))).toBe(true);
  });
});
