import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PrismaService } from '@hallmark/runtime';
import { createTestEnv } from '@hallmark/runtime/testing';
import { LinkSigner, LocalStorage } from '@hallmark/storage';
import { makeContentReference, REFERENCE_MAX_BYTES } from '@hallmark/watermark-core/content';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillReferences } from '../src/backfill/reference-backfill.ts';
import { uploadedFile } from './support/uploaded-file.ts';

const photo = join(import.meta.dirname, '../../../fixtures/photos/boats-0.6mp.jpg');
const command = join(import.meta.dirname, '../dist/backfill-references.js');

/** The backfill against the real database and local storage, on jobs made as old ones were. */
describe('backfilling content references of jobs marked before they were kept', () => {
  let testEnv: Awaited<ReturnType<typeof createTestEnv>>;
  let prisma: PrismaService;
  let storage: LocalStorage;

  beforeAll(async () => {
    testEnv = await createTestEnv('worker-test');
    prisma = new PrismaService(testEnv.config, testEnv.logger);
    storage = new LocalStorage({
      root: join(testEnv.config.HALLMARK_DATA_DIR, 'objects'),
      baseUrl: 'http://127.0.0.1:1',
      signer: new LinkSigner(randomBytes(32)),
    });
  });

  afterAll(async () => {
    await prisma?.onApplicationShutdown();
    await testEnv?.dispose();
  });

  /**
   * A finished job (marked unless `unmarked`) with the given id (ids order the backfill), its
   * output recorded at a key where `bytes`, if given, are stored; without a reference unless given.
   */
  async function finishedJob(
    id: string,
    options: { bytes?: Uint8Array; deleted?: boolean; reference?: Uint8Array; unmarked?: boolean },
  ) {
    const client = prisma.client;
    const file = await uploadedFile(client);
    const outputStorageKey = `outputs/${id}/1/photo.jpg`;
    if (options.bytes !== undefined) await storage.write(outputStorageKey, options.bytes);
    await client.watermarkJob.create({
      data: {
        id,
        apiKeyId: file.apiKeyId,
        fileId: file.fileId,
        options: { watermarkType: options.unmarked ? ['c2pa'] : ['invisible'] },
        status: 'success',
        finishedAt: new Date(),
        ...(options.unmarked ? {} : { markPayload: randomBytes(8).toString('hex') }),
        outputStorageKey,
        outputSizeBytes: options.bytes?.length ?? 5,
        ...(options.deleted ? { outputDeletedAt: new Date() } : {}),
        ...(options.reference ? { contentReference: new Uint8Array(options.reference) } : {}),
      },
    });
    return id;
  }

  /** Every job's reference, by id (hex, null when none). */
  async function references(): Promise<Record<string, string | null>> {
    const jobs = await prisma.client.watermarkJob.findMany({
      select: { id: true, contentReference: true },
    });
    return Object.fromEntries(
      jobs.map((job) => [
        job.id,
        job.contentReference === null ? null : Buffer.from(job.contentReference).toString('hex'),
      ]),
    );
  }

  /** Runs the built command as an operator would, in the test's environment. */
  async function runCommand(): Promise<{ code: number | null; stdout: string }> {
    const child = spawn(process.execPath, [command], {
      env: { ...process.env, ...testEnv.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    // 'close', not 'exit': it comes after stdout has ended, so all of it was read.
    const [code] = (await once(child, 'close')) as [number | null];
    return { code, stdout };
  }

  it('fills what it can, counts what is gone, reports what fails, and runs again as a no-op', async () => {
    const output = new Uint8Array(await readFile(photo));
    // Ids in the order the backfill walks them: the unreadable outputs come first, so the jobs
    // filled after them show that a failure does not end the run.
    const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const broken = await finishedJob(id(1), { bytes: new TextEncoder().encode('not an image') });
    const missing = await finishedJob(id(2), {}); // recorded, but no object at its key
    const old = await finishedJob(id(3), { bytes: output });
    const older = await finishedJob(id(4), { bytes: output });
    const gone = await finishedJob(id(5), { deleted: true });
    const done = await finishedJob(id(6), { bytes: output, reference: new Uint8Array([1, 2, 3]) });
    const unmarked = await finishedJob(id(7), { bytes: output, unmarked: true });

    // One job per query: the walk goes on from batch to batch past the failures.
    const report = await backfillReferences(prisma.sql, storage, testEnv.logger, 50_000_000, 1);
    expect(report).toEqual({ filled: 2, outputGone: 1, failed: 2 });

    const after = await references();
    for (const filled of [old, older]) {
      const reference = Buffer.from(after[filled] ?? '', 'hex');
      // A JPEG (its magic bytes) within the size kept per job, made from the stored output.
      expect(Array.from(reference.subarray(0, 3))).toEqual([0xff, 0xd8, 0xff]);
      expect(reference.length).toBeLessThanOrEqual(REFERENCE_MAX_BYTES);
      expect(reference.equals(await makeContentReference(output, 50_000_000))).toBe(true);
    }
    expect(after[broken]).toBeNull();
    expect(after[missing]).toBeNull();
    expect(after[gone]).toBeNull();
    expect(after[done]).toBe('010203'); // a reference already there is kept
    expect(after[unmarked]).toBeNull(); // nothing to compare without a mark

    // The command itself, run again: nothing left to fill, the same jobs reported, nothing changed.
    const { code, stdout } = await runCommand();
    expect(stdout).toContain(
      'content references: 0 filled, 1 not possible (output deleted by retention), 2 failed (see the log)',
    );
    expect(code).toBe(1); // failures make the exit status say so
    const warned = stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { requestId?: string; msg?: string })
      .filter((line) => line.msg === 'no content reference: the output could not be read');
    expect(warned.map((line) => line.requestId).sort()).toEqual([broken, missing]);
    expect(await references()).toEqual(after);
  });
});
