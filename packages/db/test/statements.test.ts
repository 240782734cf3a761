import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { hashApiKey, issueApiKey } from '../src/api-keys.ts';
import { createDatabase, type Database } from '../src/client.ts';
import {
  claimTransfer,
  claimUpload,
  completeUpload,
  failTransfer,
  findJobRun,
  findJobView,
  findKeyByHash,
  insertFile,
  insertJob,
  isUniqueViolation,
  keyStatus,
  recordTransferTransaction,
  releaseUpload,
  renewTransferLease,
} from '../src/statements/index.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing.ts';

/** No upload in these tests started before it: none is taken over as stale. */
const LONG_AGO = new Date(0);

let database: TestDatabase;
let db: Database;
let keyId: string;
let keyHash: string;
let otherKeyId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDatabase(database.url);
  const key = await issueApiKey(db.prisma, 'statements');
  keyId = key.id;
  keyHash = hashApiKey(key.plaintext);
  otherKeyId = (await issueApiKey(db.prisma, 'other')).id;
});

afterAll(async () => {
  await db?.close();
  await database?.drop();
});

async function newFile(uploaded = false) {
  const id = randomUUID();
  const storageKey = `uploads/${id}/photo.jpg`;
  const contentType = 'image/jpeg';
  await insertFile(db.sql, { id, apiKeyId: keyId, fileName: 'photo.jpg', contentType, storageKey });
  if (uploaded) {
    await claimUpload(db.sql, storageKey, contentType, LONG_AGO);
    await completeUpload(db.sql, id, {
      sizeBytes: 1,
      sha256: '00',
      detectedContentType: contentType,
    });
  }
  return { id, storageKey };
}

function jobFor(fileId: string, idempotencyKey: string | null = null, apiKeyId = keyId) {
  return {
    id: randomUUID(),
    apiKeyId,
    fileId,
    options: { watermarkType: ['invisible'] },
    idempotencyKey,
    requestHash: idempotencyKey === null ? null : 'hash',
  };
}

async function newJob(fileId: string, idempotencyKey: string | null = null) {
  const job = jobFor(fileId, idempotencyKey);
  expect(await insertJob(db.sql, job)).toBe(true);
  return job.id;
}

describe('createDatabase', () => {
  it('survives an idle connection that the server ends, and says so', async () => {
    const failures: Error[] = [];
    const own = createDatabase(database.url, (error) => failures.push(error));
    try {
      const { rows } = await own.sql.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await db.sql.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
      await expect.poll(() => failures.length).toBe(1);
      // The pool opens a new connection for the next statement.
      expect((await own.sql.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await own.close();
    }
  });
});

describe('request path statements', () => {
  it('find a key by its hash, and its revocation by id', async () => {
    expect(await findKeyByHash(db.sql, keyHash)).toMatchObject({ id: keyId, revokedAt: null });
    expect(await findKeyByHash(db.sql, 'f'.repeat(64))).toBeNull();
    await db.prisma.apiKey.update({ where: { id: otherKeyId }, data: { revokedAt: new Date() } });
    expect((await keyStatus(db.sql, otherKeyId))?.revokedAt).toBeInstanceOf(Date);
    expect(await keyStatus(db.sql, keyId)).toEqual({ revokedAt: null, rateLimitPerMinute: null });
    expect(await keyStatus(db.sql, randomUUID())).toBeUndefined();
  });

  it('claim an upload once, only with its declared type, and release it again', async () => {
    const file = await newFile();
    expect(await claimUpload(db.sql, file.storageKey, 'image/png', LONG_AGO)).toBeNull();
    const claimed = await claimUpload(db.sql, file.storageKey, 'image/jpeg', LONG_AGO);
    expect(claimed).toEqual({
      ...file,
      status: 'uploading',
      contentType: 'image/jpeg',
      deletedAt: null,
    });
    expect(await claimUpload(db.sql, file.storageKey, 'image/jpeg', LONG_AGO)).toBeNull();
    await releaseUpload(db.sql, file.id);
    expect(await claimUpload(db.sql, file.storageKey, 'image/jpeg', LONG_AGO)).not.toBeNull();
    const done = await completeUpload(db.sql, file.id, {
      sizeBytes: 1234,
      sha256: 'ab'.repeat(32),
      detectedContentType: 'image/jpeg',
    });
    expect(done.status).toBe('uploaded');
    const row = await db.prisma.file.findUniqueOrThrow({ where: { id: file.id } });
    expect(row).toMatchObject({ sizeBytes: 1234n, sha256: 'ab'.repeat(32) });
    expect(row.uploadedAt).toBeInstanceOf(Date);
  });

  it('write a job only for an uploaded file of its own key', async () => {
    const waiting = await newFile();
    expect(await insertJob(db.sql, jobFor(waiting.id))).toBe(false);
    const uploaded = await newFile(true);
    expect(await insertJob(db.sql, jobFor(uploaded.id, null, otherKeyId))).toBe(false);
    expect(await insertJob(db.sql, jobFor(randomUUID()))).toBe(false);
    const jobs = await db.prisma.watermarkJob.count({
      where: { fileId: { in: [waiting.id, uploaded.id] } },
    });
    expect(jobs).toBe(0);
    expect(await insertJob(db.sql, jobFor(uploaded.id))).toBe(true);
  });

  it('write a job that names content types only for a file of one of them', async () => {
    const uploaded = await newFile(true);
    const only = (contentTypes: string[]) => ({ ...jobFor(uploaded.id), contentTypes });
    expect(await insertJob(db.sql, only(['video/mp4', 'image/png']))).toBe(false);
    expect(await db.prisma.watermarkJob.count({ where: { fileId: uploaded.id } })).toBe(0);
    expect(await insertJob(db.sql, only(['image/png', 'image/jpeg']))).toBe(true);
  });

  it('answer a job only to its own key, with its file for the worker', async () => {
    const file = await newFile(true);
    const jobId = await newJob(file.id);
    expect(await findJobView(db.sql, jobId, otherKeyId)).toBeNull();
    expect(await findJobView(db.sql, jobId, keyId)).toMatchObject({
      id: jobId,
      status: 'pending',
      options: { watermarkType: ['invisible'] },
    });
    const run = await findJobRun(db.sql, jobId);
    expect(run).toMatchObject({ id: jobId, status: 'pending', steps: [] });
    expect(run?.file).toEqual({
      id: file.id,
      storageKey: file.storageKey,
      contentType: 'image/jpeg',
    });
  });

  it('tell a taken idempotency key by its unique violation', async () => {
    const file = await newFile(true);
    await newJob(file.id, 'same-key');
    const again = await insertJob(db.sql, jobFor(file.id, 'same-key')).catch(
      (error: unknown) => error,
    );
    expect(isUniqueViolation(again)).toBe(true);
    expect(isUniqueViolation(new Error('other'))).toBe(false);
  });
});

describe('nft transfer statements', () => {
  async function claimedTransfer() {
    const jobId = await newJob((await newFile(true)).id);
    const nft = await db.prisma.nft.create({
      data: {
        jobId,
        apiKeyId: keyId,
        chainId: 31337,
        contractAddress: `0x${'c'.repeat(40)}`,
        mintedTo: `0x${'a'.repeat(40)}`,
        imageCid: 'image',
        metadataCid: 'metadata',
        tokenId: String(Math.floor(Math.random() * 1e9)),
      },
    });
    const row = await db.prisma.nftTransfer.create({
      data: { nftId: nft.id, apiKeyId: keyId, toAddress: `0x${'b'.repeat(40)}` },
    });
    // Claims take the oldest due transfer: lease every other one out of the way first.
    await db.prisma.nftTransfer.updateMany({
      where: { id: { not: row.id } },
      data: { leaseExpiresAt: new Date(Date.now() + 3_600_000) },
    });
    const claimed = await claimTransfer(db.sql, 60_000);
    expect(claimed?.id).toBe(row.id);
    return claimed as NonNullable<typeof claimed>;
  }

  const timedOut = { code: 'transfer_failed', message: 'no receipt', settled: false };

  it('renew a transfer lease only for the run that holds it', async () => {
    const transfer = await claimedTransfer();
    expect(await renewTransferLease(db.sql, transfer, 60_000)).toBe(true);
    const stranger = { ...transfer, leaseToken: randomUUID() };
    expect(await renewTransferLease(db.sql, stranger, 60_000)).toBe(false);
  });

  it('fail a transfer that sent nothing', async () => {
    const transfer = await claimedTransfer();
    expect(await failTransfer(db.sql, transfer, timedOut)).toBe(true);
    expect(await db.prisma.nftTransfer.findUnique({ where: { id: transfer.id } })).toMatchObject({
      status: 'failed',
      errorCode: 'transfer_failed',
    });
  });

  it('never fail a transfer whose sent transaction may still be mined, unless it reverted', async () => {
    const transfer = await claimedTransfer();
    expect(await recordTransferTransaction(db.sql, transfer, `0x${'1'.repeat(64)}`, '0x02')).toBe(
      true,
    );
    expect(await failTransfer(db.sql, transfer, timedOut)).toBe(false);
    const row = () => db.prisma.nftTransfer.findUnique({ where: { id: transfer.id } });
    expect(await row()).toMatchObject({ status: 'sent', errorCode: null });
    const reverted = { code: 'transfer_reverted', message: 'reverted', settled: true };
    expect(await failTransfer(db.sql, transfer, reverted)).toBe(true);
    expect(await row()).toMatchObject({ status: 'failed', errorCode: 'transfer_reverted' });
  });
});
