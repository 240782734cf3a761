import type { Sql } from './sql.ts';
import { changeWithEvents, WATERMARK_EVENT, WATERMARK_EVENT_COLUMNS } from './webhook-events.ts';

// One job, one run. A run changes a job only while it holds the job's lease: a random token
// written by the claim, valid until `lease_expires_at` and renewed while the run works. Every
// write of a run is conditional on its token, so a run that lost its lease (it stalled, its queue
// entry was delivered again, the reconciler re-queued the job) finds its writes refused and
// changes nothing; a finished job matches no condition and never changes again. A lease that ran
// out without being released means the run died on the job: that is counted as a crash.
// Timestamps come from the application's clock, as everywhere in these statements.

export interface JobLease {
  readonly jobId: string;
  readonly token: string;
}

export interface LeaseTerms {
  /** How long a claim or a renewal holds the job. */
  readonly leaseMs: number;
  /** Runs a job may start in all, across queue entries and re-queues. */
  readonly maxAttempts: number;
  /** Runs a job may crash (lease lapsed unreleased) and still be retried. */
  readonly maxCrashes: number;
}

/** The output a run stored and recorded: kept by every later run, never recomputed. */
export interface StoredOutput {
  readonly storageKey: string;
  readonly contentType: string;
  readonly sizeBytes: number;
  readonly sha256: string;
  /** Perceptual fingerprint of the output; null for outputs recorded before fingerprints. */
  readonly fingerprint?: string | null;
  /** Pixel size of a marked output. */
  readonly width?: number | null;
  readonly height?: number | null;
  /** A marked output's content reference (a small JPEG copies are compared with). */
  readonly contentReference?: Uint8Array | null;
}

export type JobClaim =
  | {
      readonly kind: 'claimed';
      readonly lease: JobLease;
      /** This run's number, 1 for the first run of the job. */
      readonly attempt: number;
      readonly crashes: number;
      readonly markPayload: string | null;
      readonly output: StoredOutput | null;
    }
  | { readonly kind: 'missing' }
  | { readonly kind: 'finished' }
  /** Another run holds a live lease: it will finish the job, or its lease will run out. */
  | { readonly kind: 'leased'; readonly until: Date }
  | {
      readonly kind: 'exhausted';
      readonly reason: 'attempts' | 'crashes';
      readonly attempts: number;
      readonly crashes: number;
    };

interface ClaimedRow {
  attempts: number;
  crashes: number;
  markPayload: string | null;
  storageKey: string | null;
  contentType: string | null;
  sizeBytes: string | null;
  sha256: string | null;
}

/**
 * Takes the job's lease for a new run if it is unfinished, not held by a live run and within its
 * budgets; the mark payload is `newPayload` unless an earlier run chose one. Otherwise says why.
 */
export async function claimJob(
  sql: Sql,
  jobId: string,
  token: string,
  newPayload: string | null,
  terms: LeaseTerms,
): Promise<JobClaim> {
  const now = new Date();
  const { rows } = await sql.query<ClaimedRow>(
    `UPDATE watermark_jobs
        SET status = 'processing', lease_token = $2, lease_expires_at = $3,
            attempts = attempts + 1, crashes = crashes + (lease_token IS NOT NULL)::int,
            mark_payload = COALESCE(mark_payload, $4), started_at = COALESCE(started_at, $5),
            updated_at = $5
      WHERE id = $1 AND status IN ('pending', 'processing')
        AND (lease_token IS NULL OR lease_expires_at < $5)
        AND attempts < $6 AND crashes + (lease_token IS NOT NULL)::int <= $7
      RETURNING attempts, crashes, mark_payload AS "markPayload",
                output_storage_key AS "storageKey", output_content_type AS "contentType",
                output_size_bytes AS "sizeBytes", output_sha256 AS "sha256"`,
    [
      jobId,
      token,
      new Date(now.getTime() + terms.leaseMs),
      newPayload,
      now,
      terms.maxAttempts,
      terms.maxCrashes,
    ],
  );
  const row = rows[0];
  if (row !== undefined) {
    return {
      kind: 'claimed',
      lease: { jobId, token },
      attempt: row.attempts,
      crashes: row.crashes,
      markPayload: row.markPayload,
      output: storedOutputOf(row),
    };
  }
  return whyUnclaimed(sql, jobId, now, terms);
}

async function whyUnclaimed(
  sql: Sql,
  jobId: string,
  now: Date,
  terms: LeaseTerms,
): Promise<JobClaim> {
  const { rows } = await sql.query<{
    status: string;
    attempts: number;
    crashes: number;
    leaseToken: string | null;
    leaseExpiresAt: Date | null;
  }>(
    `SELECT status, attempts, crashes, lease_token AS "leaseToken",
            lease_expires_at AS "leaseExpiresAt"
       FROM watermark_jobs WHERE id = $1`,
    [jobId],
  );
  const row = rows[0];
  if (row === undefined) return { kind: 'missing' };
  if (row.status === 'success' || row.status === 'failed') return { kind: 'finished' };
  if (row.leaseToken !== null && row.leaseExpiresAt !== null && row.leaseExpiresAt >= now) {
    return { kind: 'leased', until: row.leaseExpiresAt };
  }
  const crashes = row.crashes + (row.leaseToken === null ? 0 : 1);
  if (row.attempts >= terms.maxAttempts) {
    return { kind: 'exhausted', reason: 'attempts', attempts: row.attempts, crashes };
  }
  if (crashes > terms.maxCrashes) {
    return { kind: 'exhausted', reason: 'crashes', attempts: row.attempts, crashes };
  }
  // Claimed by another run between the two statements.
  return { kind: 'leased', until: new Date(now.getTime() + terms.leaseMs) };
}

function storedOutputOf(row: ClaimedRow): StoredOutput | null {
  if (row.storageKey === null || row.contentType === null) return null;
  return {
    storageKey: row.storageKey,
    contentType: row.contentType,
    sizeBytes: Number(row.sizeBytes),
    sha256: row.sha256 ?? '',
  };
}

const HELD = `id = $1 AND lease_token = $2 AND status = 'processing'`;

/** Extends the lease; false when the run no longer holds it (it must stop). */
export async function renewLease(sql: Sql, lease: JobLease, leaseMs: number): Promise<boolean> {
  const now = new Date();
  const { rowCount } = await sql.query(
    `UPDATE watermark_jobs SET lease_expires_at = $3 WHERE ${HELD} AND lease_expires_at >= $4`,
    [lease.jobId, lease.token, new Date(now.getTime() + leaseMs), now],
  );
  return rowCount === 1;
}

/** Gives the job back after a failure another run may fix (not a crash: the run said so). */
export async function releaseLease(sql: Sql, lease: JobLease): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE watermark_jobs SET lease_token = NULL, lease_expires_at = NULL, updated_at = $3
      WHERE ${HELD}`,
    [lease.jobId, lease.token, new Date()],
  );
  return rowCount === 1;
}

/**
 * Records the stored output once, with its manifest store's sidecar when it was signed: from then
 * on every run of the job uses these bytes (the NFT and the download are the same file). False
 * when the lease is lost.
 */
export async function recordOutput(
  sql: Sql,
  lease: JobLease,
  output: StoredOutput,
  manifest: { readonly manifestId: string; readonly storageKey: string } | null,
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE watermark_jobs
        SET output_storage_key = $3, output_content_type = $4, output_size_bytes = $5,
            output_sha256 = $6, updated_at = $7, manifest_id = $8, manifest_storage_key = $9,
            fingerprint = $10, output_width = $11, output_height = $12,
            content_reference = $13
      WHERE ${HELD} AND output_storage_key IS NULL`,
    [
      lease.jobId,
      lease.token,
      output.storageKey,
      output.contentType,
      output.sizeBytes,
      output.sha256,
      new Date(),
      manifest?.manifestId ?? null,
      manifest?.storageKey ?? null,
      output.fingerprint ?? null,
      output.width ?? null,
      output.height ?? null,
      output.contentReference ?? null,
    ],
  );
  return rowCount === 1;
}

/** Ends the job as a success with its recorded output; false when the lease is lost. */
export async function finishJob(
  sql: Sql,
  lease: JobLease,
  steps: readonly object[],
): Promise<boolean> {
  return endedOne(
    sql,
    `UPDATE watermark_jobs
        SET status = 'success', steps = $3, error_code = NULL, error_message = NULL,
            lease_token = NULL, lease_expires_at = NULL, finished_at = $4, updated_at = $4
      WHERE ${HELD} AND output_storage_key IS NOT NULL`,
    [lease.jobId, lease.token, JSON.stringify(steps), new Date()],
    '$4',
  );
}

/** Ends the job as failed from the run holding it; false when the lease is lost. */
export async function failJob(
  sql: Sql,
  lease: JobLease,
  code: string,
  message: string,
): Promise<boolean> {
  return endedOne(
    sql,
    `UPDATE watermark_jobs
        SET status = 'failed', error_code = $3, error_message = $4, lease_token = NULL,
            lease_expires_at = NULL, finished_at = $5, updated_at = $5
      WHERE ${HELD}`,
    [lease.jobId, lease.token, code, message, new Date()],
    '$5',
  );
}

/** Runs a job's final update with its webhook event in one statement; true when it ended one. */
async function endedOne(
  sql: Sql,
  update: string,
  values: unknown[],
  now: string,
): Promise<boolean> {
  const change = `${update} RETURNING ${WATERMARK_EVENT_COLUMNS}`;
  return (await changeWithEvents(sql, change, WATERMARK_EVENT, values, now)) === 1;
}

/**
 * Ends an unfinished job that no live run holds (its budget is spent): false when it is
 * finished or a run holds it. A lapsed lease left behind is counted as the crash it was.
 */
export async function failUnleasedJob(
  sql: Sql,
  jobId: string,
  code: string,
  message: string,
): Promise<boolean> {
  return endedOne(
    sql,
    `UPDATE watermark_jobs
        SET status = 'failed', error_code = $2, error_message = $3, lease_token = NULL,
            lease_expires_at = NULL, finished_at = $4, updated_at = $4,
            crashes = crashes + (lease_token IS NOT NULL)::int
      WHERE id = $1 AND status IN ('pending', 'processing')
        AND (lease_token IS NULL OR lease_expires_at < $4)`,
    [jobId, code, message, new Date()],
    '$4',
  );
}
