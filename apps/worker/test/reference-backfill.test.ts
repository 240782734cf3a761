import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PrismaService } from '@hallmark/platform';
import { createTestEnv } from '@hallmark/platform/testing';
import { LinkSigner, LocalStorage } from '@hallmark/storage';
import { REFERENCE_MAX_BYTES } from '@hallmark/watermark-core/content';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillReferences } from '../src/backfill/reference-backfill.ts';

const photo = join(import.meta.dirname, '../../../fixtures/photos/boats-0.6mp.jpg');

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
    await prisma?.onModuleDestroy();
    await testEnv?.dispose();
  });

  /** A marked job whose output (`bytes`, if given) is stored, without a reference. */
  async function markedJob(options: {
    bytes?: Uint8Array;
    deleted?: boolean;
    reference?: Uint8Array;
  }) {
    const client = prisma.client;
    const key = await client.apiKey.create({
      data: { name: 'backfill', prefix: randomBytes(4).toString('hex'), hash: randomUUID() },
    });
    const file = await client.file.create({
      data: {
        apiKeyId: key.id,
        fileName: 'photo.jpg',
        contentType: 'image/jpeg',
        status: 'uploaded',
        storageKey: `uploads/${randomUUID()}/photo.jpg`,
        sizeBytes: 5,
      },
    });
    const outputStorageKey = `outputs/${randomUUID()}/photo.jpg`;
    if (options.bytes !== undefined) await storage.write(outputStorageKey, options.bytes);
    const job = await client.watermarkJob.create({
      data: {
        apiKeyId: key.id,
        fileId: file.id,
        options: { watermarkType: ['invisible'] },
        status: 'success',
        finishedAt: new Date(),
        markPayload: randomBytes(8).toString('hex'),
        outputStorageKey,
        outputSizeBytes: options.bytes?.length ?? 5,
        ...(options.deleted ? { outputDeletedAt: new Date() } : {}),
        ...(options.reference ? { contentReference: new Uint8Array(options.reference) } : {}),
      },
    });
    return job.id;
  }

  const referenceOf = async (id: string) =>
    (await prisma.client.watermarkJob.findUniqueOrThrow({ where: { id } })).contentReference;

  it('fills what it can, counts what is gone, reports what fails, and runs again as a no-op', async () => {
    const output = new Uint8Array(await readFile(photo));
    const old = await markedJob({ bytes: output });
    const gone = await markedJob({ deleted: true });
    const broken = await markedJob({ bytes: new TextEncoder().encode('not an image') });
    const kept = new Uint8Array([1, 2, 3]);
    const done = await markedJob({ bytes: output, reference: kept });

    const report = await backfillReferences(prisma.sql, storage, testEnv.logger, 50_000_000);
    expect(report).toEqual({ filled: 1, outputGone: 1, failed: 1 });

    const reference = await referenceOf(old);
    expect(reference).not.toBeNull();
    // A JPEG (its magic bytes) within the size kept per job.
    expect(Array.from((reference as Uint8Array).subarray(0, 3))).toEqual([0xff, 0xd8, 0xff]);
    expect((reference as Uint8Array).length).toBeLessThanOrEqual(REFERENCE_MAX_BYTES);
    expect(await referenceOf(gone)).toBeNull();
    expect(await referenceOf(broken)).toBeNull();
    expect(Array.from((await referenceOf(done)) as Uint8Array)).toEqual([1, 2, 3]);

    const again = await backfillReferences(prisma.sql, storage, testEnv.logger, 50_000_000);
    expect(again).toEqual({ filled: 0, outputGone: 1, failed: 1 });
  });
});
