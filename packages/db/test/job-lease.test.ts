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
  findIssuedByPayload,
  finishJob,
  insertFile,
  insertJob,
  type JobClaim,
  type LeaseTerms,
  recordMintTransaction,
  recordOutput,
  releaseLease,
  renewLease,
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

async function newJob(): Promise<string> {
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
  const id = randomUUID();
  await insertJob(db.sql, {
    id,
    apiKeyId: keyId,
    fileId,
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
  });
});
