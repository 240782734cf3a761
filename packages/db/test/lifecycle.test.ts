import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../src/api-keys.ts';
import { createDatabase, type Database } from '../src/client.ts';
import {
  claimJob,
  claimUpload,
  completeUpload,
  insertFile,
  insertJob,
  isUniqueViolation,
  lockDueInputs,
  lockDueOutputs,
  lockDueVerificationInputs,
  markInputsDeleted,
  markOutputsDeleted,
  recoverStaleUploads,
  returnMintSlot,
  storedBytes,
  takeMintSlot,
  utcDay,
} from '../src/statements/index.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing.ts';

const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);

let database: TestDatabase;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDatabase(database.url);
});

afterAll(async () => {
  await db?.close();
  await database?.drop();
});

async function newKey(): Promise<string> {
  return (await issueApiKey(db.prisma, 'lifecycle')).id;
}

async function uploadedFile(apiKeyId: string, sizeBytes: number, uploadedAt: Date) {
  const id = randomUUID();
  const storageKey = `uploads/${id}/photo.jpg`;
  await insertFile(db.sql, {
    id,
    apiKeyId,
    fileName: 'photo.jpg',
    contentType: 'image/jpeg',
    storageKey,
  });
  await claimUpload(db.sql, storageKey, 'image/jpeg', new Date(0));
  await completeUpload(db.sql, id, { sizeBytes, sha256: '00', detectedContentType: 'image/jpeg' });
  await db.prisma.file.update({ where: { id }, data: { uploadedAt } });
  return { id, storageKey };
}

async function finishedJob(
  apiKeyId: string,
  fileId: string,
  status: 'success' | 'failed' | 'processing' | 'pending',
  finishedAt: Date | null,
  outputSizeBytes = 0,
) {
  const id = randomUUID();
  await insertJob(db.sql, {
    id,
    apiKeyId,
    fileId,
    options: { watermarkType: ['invisible'] },
    idempotencyKey: null,
    requestHash: null,
  });
  await db.prisma.watermarkJob.update({
    where: { id },
    data: {
      status,
      finishedAt,
      ...(outputSizeBytes > 0
        ? {
            outputStorageKey: `outputs/${id}/1/photo.jpg`,
            outputSizeBytes: BigInt(outputSizeBytes),
          }
        : {}),
    },
  });
  return id;
}

describe('a stale upload', () => {
  it('is taken over by a new PUT, and the sweep returns it to awaiting_upload', async () => {
    const apiKeyId = await newKey();
    const id = randomUUID();
    const storageKey = `uploads/${id}/photo.jpg`;
    await insertFile(db.sql, {
      id,
      apiKeyId,
      fileName: 'p.jpg',
      contentType: 'image/jpeg',
      storageKey,
    });
    expect(await claimUpload(db.sql, storageKey, 'image/jpeg', daysAgo(1))).not.toBeNull();
    // A live upload is not taken over...
    expect(await claimUpload(db.sql, storageKey, 'image/jpeg', daysAgo(1))).toBeNull();
    // ...one that started before the bound is.
    expect(
      await claimUpload(db.sql, storageKey, 'image/jpeg', new Date(Date.now() + 1_000)),
    ).not.toBeNull();

    expect(await recoverStaleUploads(db.sql, daysAgo(1))).not.toContain(storageKey);
    expect(await recoverStaleUploads(db.sql, new Date(Date.now() + 1_000))).toContain(storageKey);
    const row = await db.prisma.file.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: 'awaiting_upload', uploadStartedAt: null });
  });
});

describe('quotas', () => {
  it('takes exactly `limit` mint slots per key and day, also when asked concurrently', async () => {
    const apiKeyId = await newKey();
    const day = utcDay(new Date());
    const taken = await Promise.all(
      Array.from({ length: 8 }, () => takeMintSlot(db.sql, apiKeyId, day, 3)),
    );
    expect(taken.filter(Boolean)).toHaveLength(3);
    // Another day, another budget; a returned slot can be taken again.
    expect(await takeMintSlot(db.sql, apiKeyId, '2020-01-01', 3)).toBe(true);
    await returnMintSlot(db.sql, apiKeyId, day);
    expect(await takeMintSlot(db.sql, apiKeyId, day, 3)).toBe(true);
    expect(await takeMintSlot(db.sql, apiKeyId, day, 3)).toBe(false);
    expect(await takeMintSlot(db.sql, await newKey(), day, 0)).toBe(false);
  });

  it('counts stored bytes of uploads and outputs until retention deletes them', async () => {
    const apiKeyId = await newKey();
    const file = await uploadedFile(apiKeyId, 1_000, new Date());
    const jobId = await finishedJob(apiKeyId, file.id, 'success', new Date(), 700);
    await uploadedFile(await newKey(), 5_000, new Date());
    expect(await storedBytes(db.sql, apiKeyId)).toBe(1_700);
    await markInputsDeleted(db.sql, [file.id], new Date());
    await markOutputsDeleted(db.sql, [jobId], new Date());
    expect(await storedBytes(db.sql, apiKeyId)).toBe(0);
  });

  it('counts rows any SQL writes: inserted with bytes (not when already deleted), moved to another key, deleted', async () => {
    const [owner, other] = [await newKey(), await newKey()];
    const insert = (id: string, sizeBytes: number, deletedAt: Date | null) =>
      db.sql.query(
        `INSERT INTO files (id, api_key_id, file_name, content_type, storage_key, status, size_bytes,
                            deleted_at)
         VALUES ($1::uuid, $2, 'a.jpg', 'image/jpeg', $1::text, 'uploaded', $3, $4)`,
        [id, owner, sizeBytes, deletedAt],
      );
    const [kept, gone] = [randomUUID(), randomUUID()];
    await insert(kept, 300, null);
    await insert(gone, 5_000, new Date());
    const job = await finishedJob(owner, kept, 'success', new Date(), 40);
    expect(await storedBytes(db.sql, owner)).toBe(340);
    await db.sql.query('UPDATE files SET api_key_id = $1 WHERE id = $2', [other, kept]);
    await db.sql.query('UPDATE watermark_jobs SET api_key_id = $1 WHERE id = $2', [other, job]);
    expect([await storedBytes(db.sql, owner), await storedBytes(db.sql, other)]).toEqual([0, 340]);
    await db.sql.query('DELETE FROM watermark_jobs WHERE id = $1', [job]);
    await db.sql.query('DELETE FROM files WHERE id = ANY($1)', [[kept, gone]]);
    expect(await storedBytes(db.sql, other)).toBe(0);
  });

  it('writes a file or a job under a quota only while the key stores less; a removed row gives its bytes back', async () => {
    const apiKeyId = await newKey();
    const file = await uploadedFile(apiKeyId, 1_000, new Date());
    const newFile = () => {
      const id = randomUUID();
      return { id, apiKeyId, fileName: 'a.jpg', contentType: 'image/jpeg', storageKey: id };
    };
    const newJob = (storageQuotaBytes: number) => ({
      id: randomUUID(),
      apiKeyId,
      fileId: file.id,
      options: { watermarkType: ['c2pa'] },
      idempotencyKey: null,
      requestHash: null,
      storageQuotaBytes,
    });
    expect(await insertFile(db.sql, newFile(), 1_000)).toBe(false);
    expect(await insertJob(db.sql, newJob(1_000))).toBe(false);
    expect(await insertFile(db.sql, newFile(), 1_001)).toBe(true);
    expect(await insertJob(db.sql, newJob(1_001))).toBe(true);
    // Rows deleted outright (not only marked) leave the count too.
    await db.prisma.watermarkJob.deleteMany({ where: { fileId: file.id } });
    await db.prisma.file.delete({ where: { id: file.id } });
    expect(await storedBytes(db.sql, apiKeyId)).toBe(0);
  });
});

describe('retention', () => {
  it('finds exactly the inputs and outputs that are due', async () => {
    await db.prisma.$executeRawUnsafe(`UPDATE files SET deleted_at = now()`);
    await db.prisma.$executeRawUnsafe(`UPDATE watermark_jobs SET output_deleted_at = now()`);
    const apiKeyId = await newKey();
    const cutoff = daysAgo(7);
    // Due: job ended 8 days ago; unused upload from 9 days ago.
    const oldDone = await uploadedFile(apiKeyId, 10, daysAgo(10));
    const oldDoneJob = await finishedJob(apiKeyId, oldDone.id, 'success', daysAgo(8), 10);
    const unused = await uploadedFile(apiKeyId, 10, daysAgo(9));
    // Not due: a recent job on an old file; a job still running; a recent upload.
    const reused = await uploadedFile(apiKeyId, 10, daysAgo(10));
    await finishedJob(apiKeyId, reused.id, 'success', daysAgo(8));
    await finishedJob(apiKeyId, reused.id, 'success', daysAgo(1));
    const running = await uploadedFile(apiKeyId, 10, daysAgo(10));
    await finishedJob(apiKeyId, running.id, 'processing', null);
    await uploadedFile(apiKeyId, 10, daysAgo(1));
    // Outputs: a failed job's output goes with the inputs' cutoff.
    const failed = await uploadedFile(apiKeyId, 10, daysAgo(10));
    const failedJob = await finishedJob(apiKeyId, failed.id, 'failed', daysAgo(8), 10);

    const inputs = await db.transaction((sql) => lockDueInputs(sql, cutoff, 100));
    expect(inputs.map((due) => due.id).sort()).toEqual([oldDone.id, unused.id, failed.id].sort());
    expect(inputs.find((due) => due.id === unused.id)?.storageKey).toBe(unused.storageKey);

    const keptForEver = await db.transaction((sql) => lockDueOutputs(sql, null, cutoff, 100));
    expect(keptForEver.map((due) => due.id)).toEqual([failedJob]);
    const afterDays = await db.transaction((sql) => lockDueOutputs(sql, cutoff, cutoff, 100));
    expect(afterDays.map((due) => due.id).sort()).toEqual([oldDoneJob, failedJob].sort());
  });

  it('two sweepers at once take disjoint batches', async () => {
    await db.prisma.$executeRawUnsafe(`UPDATE files SET deleted_at = now()`);
    const apiKeyId = await newKey();
    for (let i = 0; i < 6; i++) await uploadedFile(apiKeyId, 10, daysAgo(30));
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked: () => void = () => undefined;
    const firstLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    let first: string[] = [];
    const firstSweep = db.transaction(async (sql) => {
      first = (await lockDueInputs(sql, daysAgo(7), 4)).map((due) => due.id);
      locked();
      await held;
    });
    // The second sweep starts only once the first holds its rows (or fails, to end the test).
    await Promise.race([firstLocked, firstSweep]);
    const second = (await db.transaction((sql) => lockDueInputs(sql, daysAgo(7), 4))).map(
      (due) => due.id,
    );
    release();
    await firstSweep;
    expect(first).toHaveLength(4);
    expect(second).toHaveLength(2);
    expect(second.filter((id) => first.includes(id))).toEqual([]);
  });

  it('a deleted input takes no new job', async () => {
    const apiKeyId = await newKey();
    const file = await uploadedFile(apiKeyId, 10, daysAgo(10));
    await markInputsDeleted(db.sql, [file.id], new Date());
    const accepted = await insertJob(db.sql, {
      id: randomUUID(),
      apiKeyId,
      fileId: file.id,
      options: { watermarkType: ['invisible'] },
      idempotencyKey: null,
      requestHash: null,
    });
    expect(accepted).toBe(false);
  });
});

describe('retention of files uploaded for verification', () => {
  it('takes a file whose verifications all ended before the cutoff, and no other', async () => {
    await db.prisma.$executeRawUnsafe(`UPDATE files SET deleted_at = now()`);
    const apiKeyId = await newKey();
    const verifyOnly = async (endedHoursAgo: number | null) => {
      const file = await uploadedFile(apiKeyId, 10, daysAgo(1));
      await db.prisma.verification.create({
        data: {
          apiKeyId,
          fileId: file.id,
          status: endedHoursAgo === null ? 'processing' : 'success',
          finishedAt:
            endedHoursAgo === null ? null : new Date(Date.now() - endedHoursAgo * 3_600_000),
        },
      });
      return file.id;
    };
    const due = await verifyOnly(30);
    await verifyOnly(2);
    await verifyOnly(null);
    // Also watermarked: kept by the inputs' own retention.
    const watermarked = await verifyOnly(30);
    await finishedJob(apiKeyId, watermarked, 'success', new Date());
    const cutoff = new Date(Date.now() - 24 * 3_600_000);
    const found = await db.transaction((sql) => lockDueVerificationInputs(sql, cutoff, 100));
    expect(found.map((file) => file.id)).toEqual([due]);
  });

  it('a mark payload is issued once: claiming a job with an issued payload is a unique violation', async () => {
    const apiKeyId = await newKey();
    const issued = await finishedJob(
      apiKeyId,
      (await uploadedFile(apiKeyId, 10, new Date())).id,
      'success',
      new Date(),
    );
    await db.prisma.watermarkJob.update({
      where: { id: issued },
      data: { markPayload: 'a1b2c3d4e5f60718' },
    });
    const next = await finishedJob(
      apiKeyId,
      (await uploadedFile(apiKeyId, 10, new Date())).id,
      'pending',
      null,
    );
    const terms = { leaseMs: 30_000, maxAttempts: 5, maxCrashes: 2 };
    const error = await claimJob(db.sql, next, randomUUID(), 'a1b2c3d4e5f60718', terms).then(
      () => null,
      (caught: unknown) => caught,
    );
    // The worker draws again on exactly this error.
    expect(isUniqueViolation(error)).toBe(true);
    const claimed = await claimJob(db.sql, next, randomUUID(), '0000000000000001', terms);
    expect(claimed.kind).toBe('claimed');
  });
});
