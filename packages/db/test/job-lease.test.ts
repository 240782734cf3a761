import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { issueApiKey } from '../src/api-keys.ts';
import { createDatabase, type Database } from '../src/client.ts';
import {
  claimJob,
  claimMintSigning,
  claimUpload,
  completeUpload,
  failJob,
  failUnleasedJob,
  failVerification,
  findIdleJobs,
  findIdleVerifications,
  findIssuedByPayload,
  finishJob,
  forgetMintTransaction,
  insertFile,
  insertJob,
  insertVerification,
  type JobClaim,
  type LeaseTerms,
  markJobRequeued,
  markVerificationRequeued,
  recordMintTransaction,
  recordOutput,
  releaseLease,
  renewLease,
  retryFailedJob,
} from '../src/statements/index.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing.ts';

/** No upload in these tests started before it: none is taken over as stale. */
const LONG_AGO = new Date(0);

let database: TestDatabase;
let db: Database;
let keyId: string;

const terms: LeaseTerms = { leaseMs: 60_000, maxAttempts: 4, maxCrashes: 2 };
const output = {
  storageKey: 'outputs/x/1/photo.jpg',
  contentType: 'image/jpeg',
  sizeBytes: 9,
  sha256: 'ab'.repeat(32),
};

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDatabase(database.url);
  keyId = (await issueApiKey(db.prisma, 'leases')).id;
});

afterAll(async () => {
  await db?.close();
  await database?.drop();
});

async function uploadedFile(): Promise<string> {
  const fileId = randomUUID();
  const storageKey = `uploads/${fileId}/photo.jpg`;
  await insertFile(db.sql, {
    id: fileId,
    apiKeyId: keyId,
    fileName: 'photo.jpg',
    contentType: 'image/jpeg',
    storageKey,
  });
  await claimUpload(db.sql, storageKey, 'image/jpeg', LONG_AGO);
  await completeUpload(db.sql, fileId, {
    sizeBytes: 1,
    sha256: '00',
    detectedContentType: 'image/jpeg',
  });
  return fileId;
}

async function newJob(): Promise<string> {
  const id = randomUUID();
  await insertJob(db.sql, {
    id,
    apiKeyId: keyId,
    fileId: await uploadedFile(),
    options: { watermarkType: ['invisible'] },
    idempotencyKey: null,
    requestHash: null,
  });
  return id;
}

function claimed(claim: JobClaim) {
  if (claim.kind !== 'claimed') throw new Error(`expected a claim, got ${claim.kind}`);
  return claim;
}

/** The lease ran out (the run's process died): moved into the past. */
async function lapse(jobId: string): Promise<void> {
  await db.sql.query(
    `UPDATE watermark_jobs SET lease_expires_at = now() - interval '1 second' WHERE id = $1`,
    [jobId],
  );
}

const row = (id: string) => db.prisma.watermarkJob.findUniqueOrThrow({ where: { id } });

describe('job leases', () => {
  it('one run at a time: a second claim is refused while the first holds a live lease', async () => {
    const id = await newJob();
    const first = claimed(await claimJob(db.sql, id, randomUUID(), 'aa'.repeat(8), terms));
    expect(first).toMatchObject({
      attempt: 1,
      crashes: 0,
      markPayload: 'aa'.repeat(8),
      output: null,
    });
    const second = await claimJob(db.sql, id, randomUUID(), 'bb'.repeat(8), terms);
    expect(second.kind).toBe('leased');
    expect(await row(id)).toMatchObject({
      status: 'processing',
      attempts: 1,
      leaseToken: first.lease.token,
    });
  });

  it('a run that lost its lease changes nothing; the run that took over keeps the first payload and output', async () => {
    const id = await newJob();
    const stale = claimed(await claimJob(db.sql, id, randomUUID(), 'cc'.repeat(8), terms));
    await lapse(id);
    const current = claimed(await claimJob(db.sql, id, randomUUID(), 'dd'.repeat(8), terms));
    // The lapsed lease was never released: the first run died on the job.
    expect(current).toMatchObject({ attempt: 2, crashes: 1, markPayload: 'cc'.repeat(8) });

    expect(await renewLease(db.sql, stale.lease, 60_000)).toBe(false);
    expect(await recordOutput(db.sql, stale.lease, output, null)).toBe(false);
    expect(await finishJob(db.sql, stale.lease, [])).toBe(false);
    expect(await failJob(db.sql, stale.lease, 'internal_error', 'late')).toBe(false);
    expect(await releaseLease(db.sql, stale.lease)).toBe(false);

    expect(await renewLease(db.sql, current.lease, 60_000)).toBe(true);
    expect(await recordOutput(db.sql, current.lease, output, null)).toBe(true);
    // Recorded once: a second output is refused, a later run gets the first.
    expect(
      await recordOutput(db.sql, current.lease, { ...output, sha256: 'ff'.repeat(32) }, null),
    ).toBe(false);
    expect(await releaseLease(db.sql, current.lease)).toBe(true);
    const next = claimed(await claimJob(db.sql, id, randomUUID(), null, terms));
    expect(next).toMatchObject({ attempt: 3, crashes: 1, output });
  });

  it('a finished job never changes again', async () => {
    const id = await newJob();
    const run = claimed(await claimJob(db.sql, id, randomUUID(), null, terms));
    expect(await finishJob(db.sql, run.lease, [])).toBe(false); // no output recorded yet
    await recordOutput(db.sql, run.lease, output, null);
    expect(await finishJob(db.sql, run.lease, [{ name: 'store', ms: 1, attempt: 1 }])).toBe(true);
    const done = await row(id);
    expect(done).toMatchObject({
      status: 'success',
      leaseToken: null,
      outputSha256: output.sha256,
    });

    expect((await claimJob(db.sql, id, randomUUID(), null, terms)).kind).toBe('finished');
    expect(await failJob(db.sql, run.lease, 'internal_error', 'late')).toBe(false);
    expect(await failUnleasedJob(db.sql, id, 'internal_error', 'late')).toBe(false);
    expect(await row(id)).toEqual(done);
  });

  it('a marked output is recorded with its content reference, which its issued record carries', async () => {
    const marked = await newJob();
    const payload = 'ee'.repeat(8);
    const run = claimed(await claimJob(db.sql, marked, randomUUID(), payload, terms));
    const reference = new Uint8Array([0xff, 0xd8, 0xff, 0x00, 0x01, 0xfe]);
    expect(
      await recordOutput(
        db.sql,
        run.lease,
        { ...output, fingerprint: '12'.repeat(8), contentReference: reference },
        null,
      ),
    ).toBe(true);
    expect(Array.from((await row(marked)).contentReference ?? [])).toEqual(Array.from(reference));
    const issued = await findIssuedByPayload(db.sql, payload);
    expect(issued?.requestId).toBe(marked);
    expect(Array.from(issued?.contentReference ?? [])).toEqual(Array.from(reference));

    // An output recorded without one (no invisible mark) has none.
    const plain = await newJob();
    const other = claimed(await claimJob(db.sql, plain, randomUUID(), null, terms));
    expect(await recordOutput(db.sql, other.lease, output, null)).toBe(true);
    expect((await row(plain)).contentReference).toBeNull();
  });

  it('the attempt budget holds across re-queues, the crash budget after two crashes', async () => {
    const retried = await newJob();
    for (let attempt = 1; attempt <= terms.maxAttempts; attempt += 1) {
      const run = claimed(await claimJob(db.sql, retried, randomUUID(), null, terms));
      expect(run.attempt).toBe(attempt);
      await releaseLease(db.sql, run.lease);
    }
    expect(await claimJob(db.sql, retried, randomUUID(), null, terms)).toEqual({
      kind: 'exhausted',
      reason: 'attempts',
      attempts: terms.maxAttempts,
      crashes: 0,
    });

    const crashing = await newJob();
    claimed(await claimJob(db.sql, crashing, randomUUID(), null, terms));
    await lapse(crashing);
    claimed(await claimJob(db.sql, crashing, randomUUID(), null, terms)); // crash 1
    await lapse(crashing);
    claimed(await claimJob(db.sql, crashing, randomUUID(), null, terms)); // crash 2
    await lapse(crashing);
    expect(await claimJob(db.sql, crashing, randomUUID(), null, terms)).toMatchObject({
      kind: 'exhausted',
      reason: 'crashes',
      crashes: 3,
    });
    expect(await failUnleasedJob(db.sql, crashing, 'worker_crashed', 'crashed')).toBe(true);
    expect(await row(crashing)).toMatchObject({ status: 'failed', errorCode: 'worker_crashed' });
  });

  it('failUnleasedJob leaves a job that a live run holds', async () => {
    const id = await newJob();
    claimed(await claimJob(db.sql, id, randomUUID(), null, terms));
    expect(await failUnleasedJob(db.sql, id, 'internal_error', 'x')).toBe(false);
    expect((await row(id)).status).toBe('processing');
  });
});

describe('mint signing claims', () => {
  it('only one of two racing runs records a transaction, and only while it holds the lease', async () => {
    const id = await newJob();
    const a = claimed(await claimJob(db.sql, id, randomUUID(), null, terms));
    const nft = await db.prisma.nft.create({
      data: {
        jobId: id,
        apiKeyId: keyId,
        chainId: 31337,
        contractAddress: '0x0000000000000000000000000000000000000001',
        mintedTo: '0x0000000000000000000000000000000000000002',
        imageCid: 'bafyimage',
        metadataCid: 'bafymeta',
      },
    });
    expect(await claimMintSigning(db.sql, nft.id, a.lease)).toBe(true);
    // a stalls after signing; its lease runs out and b takes the job and the signing claim.
    await lapse(id);
    const b = claimed(await claimJob(db.sql, id, randomUUID(), null, terms));
    expect(await claimMintSigning(db.sql, nft.id, a.lease)).toBe(false);
    expect(await claimMintSigning(db.sql, nft.id, b.lease)).toBe(true);
    const txA = { txHash: `0x${'a'.repeat(64)}`, rawTransaction: '0xaa' };
    const txB = { txHash: `0x${'b'.repeat(64)}`, rawTransaction: '0xbb' };
    expect(await recordMintTransaction(db.sql, nft.id, a.lease, txA)).toBe(false);
    expect(await recordMintTransaction(db.sql, nft.id, b.lease, txB)).toBe(true);
    // Recorded: nobody signs this mint again.
    expect(await claimMintSigning(db.sql, nft.id, b.lease)).toBe(false);
    expect(await db.prisma.nft.findUniqueOrThrow({ where: { id: nft.id } })).toMatchObject({
      txHash: txB.txHash,
      rawTransaction: '0xbb',
    });
    // A transaction that can never be mined is forgotten only by the run holding the job.
    expect(await forgetMintTransaction(db.sql, nft.id, a.lease, txB.txHash)).toBe(false);
    expect(await forgetMintTransaction(db.sql, nft.id, b.lease, txB.txHash)).toBe(true);
    expect(await claimMintSigning(db.sql, nft.id, b.lease)).toBe(true);
  });
});

/** Rows are made idle by moving their last change here; passes look for changes before IDLE. */
const IDLE = new Date('2001-01-01T00:00:00Z');

async function idle(table: 'watermark_jobs' | 'verifications', id: string): Promise<string> {
  await db.sql.query(`UPDATE ${table} SET updated_at = $2 WHERE id = $1`, [id, new Date(0)]);
  return id;
}

async function newVerification(): Promise<string> {
  const id = randomUUID();
  await insertVerification(db.sql, {
    id,
    apiKeyId: keyId,
    fileId: await uploadedFile(),
    idempotencyKey: null,
    requestHash: null,
  });
  return id;
}

describe("an admin's retry", () => {
  it('takes a failed job back to pending with fresh budgets, once', async () => {
    const id = await newJob();
    const run = await claimJob(db.sql, id, randomUUID(), null, terms);
    expect(run.kind).toBe('claimed');
    await lapse(id);
    expect(await failUnleasedJob(db.sql, id, 'worker_crashed', 'crashed')).toBe(true);

    expect(await db.prisma.$transaction((tx) => retryFailedJob(tx, id))).toBe(true);
    expect(await row(id)).toMatchObject({
      status: 'pending',
      attempts: 0,
      crashes: 0,
      errorCode: null,
      errorMessage: null,
      finishedAt: null,
      leaseToken: null,
      leaseExpiresAt: null,
    });
    // Pending now: a second retry (another admin at the same moment) changes nothing.
    expect(await db.prisma.$transaction((tx) => retryFailedJob(tx, id))).toBe(false);
  });

  it('leaves an unfinished job and a missing one alone', async () => {
    const id = await newJob();
    expect(await db.prisma.$transaction((tx) => retryFailedJob(tx, id))).toBe(false);
    expect((await row(id)).status).toBe('pending');
    const missing = randomUUID();
    expect(await db.prisma.$transaction((tx) => retryFailedJob(tx, missing))).toBe(false);
  });
});

describe("the reconciler's rows", () => {
  it('finds idle unfinished jobs no live run holds, until they are marked re-queued', async () => {
    const waiting = await idle('watermark_jobs', await newJob());
    const held = await newJob();
    expect((await claimJob(db.sql, held, randomUUID(), null, terms)).kind).toBe('claimed');
    await idle('watermark_jobs', held);
    const finished = await newJob();
    await failUnleasedJob(db.sql, finished, 'internal_error', 'x');
    await idle('watermark_jobs', finished);

    const found = await findIdleJobs(db.sql, IDLE, 1_000);
    expect(found).toContain(waiting);
    expect(found).not.toContain(held);
    expect(found).not.toContain(finished);

    await markJobRequeued(db.sql, waiting);
    expect(await findIdleJobs(db.sql, IDLE, 1_000)).not.toContain(waiting);
    expect((await row(waiting)).status).toBe('pending');
  });

  it('finds idle unfinished verifications, until they are marked re-queued', async () => {
    const waiting = await idle('verifications', await newVerification());
    const failed = await newVerification();
    await failVerification(db.sql, failed, 'invalid_image', 'x');
    await idle('verifications', failed);

    const found = await findIdleVerifications(db.sql, IDLE, 1_000);
    expect(found).toContain(waiting);
    expect(found).not.toContain(failed);

    await markVerificationRequeued(db.sql, waiting);
    expect(await findIdleVerifications(db.sql, IDLE, 1_000)).not.toContain(waiting);
  });
});
