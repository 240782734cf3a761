import { heldBy, JOB_LEASE, renewHeldLease } from './leases.ts';
import type { Sql } from './sql.ts';

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

/** Job $1 is held by the run of token $2: every write of a run is conditional on it. */
export const HELD = heldBy(JOB_LEASE, { id: '$1', token: '$2' });

/** Extends the lease; false when the run no longer holds it (it must stop). */
export function renewLease(sql: Sql, lease: JobLease, leaseMs: number): Promise<boolean> {
  return renewHeldLease(sql, JOB_LEASE, lease.jobId, lease.token, leaseMs);
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
