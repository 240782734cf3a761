import type { Sql } from './sql.ts';

// The retention sweep's statements. Each runs inside a transaction that locks the due rows with
// SKIP LOCKED, deletes their objects, marks them and commits: sweepers on several instances take
// disjoint batches, and one that dies mid-batch rolls back, so the next sweep deletes (again,
// harmlessly) and marks those rows.

export interface DueObject {
  /** The file's id (inputs) or the job's id (outputs). */
  readonly id: string;
  readonly storageKey: string;
}

/**
 * Uploaded files whose bytes are due: every job of the file ended before `cutoff`, or the file
 * has no job and was uploaded before it. A file with a job still running is never due.
 */
export async function lockDueInputs(sql: Sql, cutoff: Date, limit: number): Promise<DueObject[]> {
  const { rows } = await sql.query<DueObject>(
    `SELECT f.id, f.storage_key AS "storageKey" FROM files f
      WHERE f.status = 'uploaded' AND f.deleted_at IS NULL AND f.uploaded_at < $1
        AND NOT EXISTS (SELECT 1 FROM watermark_jobs j
                         WHERE j.file_id = f.id
                           AND (j.finished_at IS NULL OR j.finished_at >= $1))
      ORDER BY f.uploaded_at
      LIMIT $2
      FOR UPDATE OF f SKIP LOCKED`,
    [cutoff, limit],
  );
  return rows;
}

/**
 * Files uploaded only to be verified (no watermark job uses them) whose verifications all ended
 * before `cutoff`: their bytes go sooner than other inputs (VERIFY_RETENTION_HOURS).
 */
export async function lockDueVerificationInputs(
  sql: Sql,
  cutoff: Date,
  limit: number,
): Promise<DueObject[]> {
  const { rows } = await sql.query<DueObject>(
    `SELECT f.id, f.storage_key AS "storageKey" FROM files f
      WHERE f.status = 'uploaded' AND f.deleted_at IS NULL
        AND EXISTS (SELECT 1 FROM verifications v WHERE v.file_id = f.id)
        AND NOT EXISTS (SELECT 1 FROM watermark_jobs j WHERE j.file_id = f.id)
        AND NOT EXISTS (SELECT 1 FROM verifications v
                         WHERE v.file_id = f.id
                           AND (v.finished_at IS NULL OR v.finished_at >= $1))
      ORDER BY f.uploaded_at
      LIMIT $2
      FOR UPDATE OF f SKIP LOCKED`,
    [cutoff, limit],
  );
  return rows;
}

export async function markInputsDeleted(sql: Sql, ids: readonly string[], at: Date): Promise<void> {
  await sql.query(`UPDATE files SET deleted_at = $2 WHERE id = ANY($1::uuid[])`, [ids, at]);
}

/**
 * Stored outputs that are due: of successful jobs that ended before `successCutoff` (null: kept
 * for ever), and of failed jobs (never served) that ended before `failedCutoff`.
 */
export async function lockDueOutputs(
  sql: Sql,
  successCutoff: Date | null,
  failedCutoff: Date,
  limit: number,
): Promise<DueObject[]> {
  const { rows } = await sql.query<DueObject>(
    `SELECT id, output_storage_key AS "storageKey" FROM watermark_jobs
      WHERE output_storage_key IS NOT NULL AND output_deleted_at IS NULL
        AND ((status = 'success' AND $1::timestamptz IS NOT NULL AND finished_at < $1::timestamptz)
          OR (status = 'failed' AND finished_at < $2::timestamptz))
      ORDER BY finished_at
      LIMIT $3
      FOR UPDATE SKIP LOCKED`,
    [successCutoff, failedCutoff, limit],
  );
  return rows;
}

export async function markOutputsDeleted(
  sql: Sql,
  ids: readonly string[],
  at: Date,
): Promise<void> {
  await sql.query(`UPDATE watermark_jobs SET output_deleted_at = $2 WHERE id = ANY($1::uuid[])`, [
    ids,
    at,
  ]);
}
