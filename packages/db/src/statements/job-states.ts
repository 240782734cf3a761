import type { Prisma } from '../generated/prisma/client.ts';
import { findIdleRows, markRequeued } from './idle-rows.ts';
import { HELD, type JobLease, type LeaseTerms, type StoredOutput } from './job-lease.ts';
import type { Sql } from './sql.ts';
import { changeOneWithEvent, WATERMARK_EVENT } from './webhook-events.ts';

// A watermark job's status, changed by these statements and nowhere else (insertJob writes a
// new job pending):
//
//                       claimJob                  finishJob
//   insertJob ─▶ pending ─────────▶ processing ───────────▶ success
//                  ▲  │               │  ▲  │
//                  │  │               │  └──┘ claimJob: the next run, after releaseLease or a
//                  │  │               │       lapsed lease (counted as a crash)
//                  │  │               │ failJob, failUnleasedJob
//                  │  │               ▼
//                  │  └───────────▶ failed
//                  │  failUnleasedJob │
//                  └──────────────────┘ retryFailedJob (an admin)
//
// success is final, failed too but for an admin's retry. A run changes a job only under its
// lease (see job-lease.ts); failUnleasedJob and retryFailedJob only while no run holds it. The
// reconciler re-queues jobs idle in pending or processing (findIdleJobs) and restarts their
// idle clock (markJobRequeued), which changes no status.

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
 * pending or processing ▶ processing: takes the job's lease for a new run if it is unfinished,
 * not held by a live run and within its budgets; the mark payload is `newPayload` unless an
 * earlier run chose one. Otherwise says why.
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

/** processing ▶ success: ends the job with its recorded output; false when the lease is lost. */
export async function finishJob(
  sql: Sql,
  lease: JobLease,
  steps: readonly object[],
): Promise<boolean> {
  return changeOneWithEvent(
    sql,
    `UPDATE watermark_jobs
        SET status = 'success', steps = $3, error_code = NULL, error_message = NULL,
            lease_token = NULL, lease_expires_at = NULL, finished_at = $4, updated_at = $4
      WHERE ${HELD} AND output_storage_key IS NOT NULL`,
    WATERMARK_EVENT,
    [lease.jobId, lease.token, JSON.stringify(steps), new Date()],
    '$4',
  );
}

/** processing ▶ failed: ends the job from the run holding it; false when the lease is lost. */
export async function failJob(
  sql: Sql,
  lease: JobLease,
  code: string,
  message: string,
): Promise<boolean> {
  return changeOneWithEvent(
    sql,
    `UPDATE watermark_jobs SET ${failed('$3', '$4', '$5')} WHERE ${HELD}`,
    WATERMARK_EVENT,
    [lease.jobId, lease.token, code, message, new Date()],
    '$5',
  );
}

/** The columns of a job that ends failed, with its code and message, at `now`. */
function failed(code: string, message: string, now: string): string {
  return `status = 'failed', error_code = ${code}, error_message = ${message}, lease_token = NULL,
          lease_expires_at = NULL, finished_at = ${now}, updated_at = ${now}`;
}

/**
 * pending or processing ▶ failed: ends an unfinished job that no live run holds (its budget is
 * spent): false when it is finished or a run holds it. A lapsed lease left behind is counted as
 * the crash it was.
 */
export async function failUnleasedJob(
  sql: Sql,
  jobId: string,
  code: string,
  message: string,
): Promise<boolean> {
  return changeOneWithEvent(
    sql,
    `UPDATE watermark_jobs
        SET ${failed('$2', '$3', '$4')}, crashes = crashes + (lease_token IS NOT NULL)::int
      WHERE id = $1 AND status IN ('pending', 'processing')
        AND (lease_token IS NULL OR lease_expires_at < $4)`,
    WATERMARK_EVENT,
    [jobId, code, message, new Date()],
    '$4',
  );
}

/**
 * failed ▶ pending: an admin's retry. The job runs again from the start of its budgets (attempts
 * and crashes); an output it stored is kept. False when the job is not failed (or missing). In
 * the caller's transaction, with its audit entry.
 */
export async function retryFailedJob(
  tx: Pick<Prisma.TransactionClient, '$executeRaw'>,
  jobId: string,
): Promise<boolean> {
  const changed = await tx.$executeRaw`
    UPDATE watermark_jobs
       SET status = 'pending', attempts = 0, crashes = 0, error_code = NULL,
           error_message = NULL, finished_at = NULL, lease_token = NULL,
           lease_expires_at = NULL, updated_at = ${new Date()}
     WHERE id = ${jobId}::uuid AND status = 'failed'`;
  return changed === 1;
}

/** Unfinished jobs idle since `idleSince` that no live run holds (see idle-rows.ts). */
export function findIdleJobs(sql: Sql, idleSince: Date, limit: number): Promise<string[]> {
  return findIdleRows(sql, 'watermark_jobs', idleSince, limit, true);
}

/** Restarts a re-queued job's idle clock. */
export function markJobRequeued(sql: Sql, jobId: string): Promise<void> {
  return markRequeued(sql, 'watermark_jobs', jobId);
}
