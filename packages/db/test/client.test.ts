import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../src/api-keys.ts';
import { createDatabase, createPrismaClient } from '../src/client.ts';
import {
  FileStatus,
  JobStatus,
  Prisma,
  type PrismaClient,
} from '../src/generated/prisma/client.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing.ts';

describe('Prisma client against a migrated database', () => {
  let database: TestDatabase;
  let prisma: PrismaClient;

  beforeAll(async () => {
    database = await createTestDatabase();
    prisma = createPrismaClient(database.url);
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await database?.drop();
  });

  it("lets a transaction that a loaded machine slows past Prisma's 5 s default run to its end", async () => {
    const pid = await prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_sleep(6)`;
      return tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
    });
    expect(pid[0]?.pid).toEqual(expect.any(Number));
  }, 60_000);

  it('round-trips an uploaded file and its watermark job', async () => {
    const key = generateApiKey();
    const apiKey = await prisma.apiKey.create({
      data: { name: 'roundtrip', prefix: key.prefix, hash: key.hash },
    });
    const file = await prisma.file.create({
      data: {
        apiKeyId: apiKey.id,
        fileName: 'photo.jpg',
        contentType: 'image/jpeg',
        storageKey: `uploads/${apiKey.id}/photo.jpg`,
      },
    });
    expect(file.status).toBe(FileStatus.awaiting_upload);
    expect(file.id).toMatch(/^[0-9a-f-]{36}$/);

    const uploaded = await prisma.file.update({
      where: { id: file.id },
      data: {
        status: FileStatus.uploaded,
        sizeBytes: 5_000_000_000n,
        sha256: 'a'.repeat(64),
        uploadedAt: new Date(),
      },
    });
    expect(uploaded.sizeBytes).toBe(5_000_000_000n);

    const options = { c2pa: true, invisible: { strength: 0.5 } };
    const job = await prisma.watermarkJob.create({
      data: { apiKeyId: apiKey.id, fileId: file.id, options, idempotencyKey: 'req-1' },
    });
    expect(job).toMatchObject({ status: JobStatus.pending, attempts: 0, steps: [], options });

    const done = await prisma.watermarkJob.update({
      where: { id: job.id },
      data: {
        status: JobStatus.success,
        attempts: { increment: 1 },
        steps: [{ step: 'embed', ms: 12 }],
        finishedAt: new Date(),
      },
    });
    expect(done.attempts).toBe(1);
    expect(done.updatedAt.getTime()).toBeGreaterThanOrEqual(job.updatedAt.getTime());

    const loaded = await prisma.file.findUniqueOrThrow({
      where: { id: file.id },
      include: { watermarkJobs: true },
    });
    expect(loaded.watermarkJobs.map((j) => j.id)).toEqual([job.id]);

    // One idempotency key per API key.
    const duplicate = prisma.watermarkJob.create({
      data: { apiKeyId: apiKey.id, fileId: file.id, options, idempotencyKey: 'req-1' },
    });
    await expect(duplicate).rejects.toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
    await expect(duplicate).rejects.toMatchObject({ code: 'P2002' });
  });
});

describe('a process database', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  // Four statements at once, each holding its connection: the pool opens as many connections as
  // it may (a backend each), and the rest wait for one.
  const backendsFor = async (poolMax?: number) => {
    const db = createDatabase(database.url, undefined, poolMax);
    try {
      const pids = await Promise.all(
        Array.from({ length: 4 }, () =>
          db.sql.query<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_sleep(0.3)'),
        ),
      );
      return new Set(pids.map((result) => result.rows[0]?.pid)).size;
    } finally {
      await db.close();
    }
  };

  it('opens at most DATABASE_POOL_MAX connections', async () => {
    expect(await backendsFor(2)).toBe(2);
    expect(await backendsFor()).toBe(4);
  });
});
