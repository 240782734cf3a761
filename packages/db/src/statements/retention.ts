import type { Sql } from './sql.ts';

// The retention sweep's statements. A row is marked deleted before its object is removed, never
// after: one transaction locks the due rows with SKIP LOCKED (sweepers on several instances take
// disjoint batches), marks them and queues their storage keys in storage_deletions; only after it
// commits are the objects removed and their keys forgotten. A row therefore never points at an
// object that is gone, and a process that dies in between leaves queued keys, not lost ones: the
// next sweep removes those objects (again, harmlessly, if they already went).

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

/** Marks the files deleted and queues their objects for removal (one statement). */
export async function markInputsDeleted(sql: Sql, ids: readonly string[], at: Date): Promise<void> {
  await sql.query(
    `WITH marked AS (
       UPDATE files SET deleted_at = $2 WHERE id = ANY($1::uuid[]) RETURNING storage_key
     )
     INSERT INTO storage_deletions (storage_key, queued_at)
     SELECT storage_key, $2 FROM marked
     ON CONFLICT (storage_key) DO NOTHING`,
    [ids, at],
  );
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

/** Marks the jobs' outputs deleted and queues their objects for removal (one statement). */
export async function markOutputsDeleted(
  sql: Sql,
  ids: readonly string[],
  at: Date,
): Promise<void> {
  await sql.query(
    `WITH marked AS (
       UPDATE watermark_jobs SET output_deleted_at = $2
        WHERE id = ANY($1::uuid[]) AND output_storage_key IS NOT NULL
        RETURNING output_storage_key
     )
     INSERT INTO storage_deletions (storage_key, queued_at)
     SELECT output_storage_key, $2 FROM marked
     ON CONFLICT (storage_key) DO NOTHING`,
    [ids, at],
  );
}

/**
 * Storage keys queued for removal, oldest first, locked with SKIP LOCKED so that sweepers on
 * several instances remove disjoint sets. The caller removes the objects, then forgets the keys
 * in the same transaction: a removal that fails rolls back and leaves its keys queued.
 */
export async function lockQueuedDeletions(sql: Sql, limit: number): Promise<string[]> {
  const { rows } = await sql.query<{ storageKey: string }>(
    `SELECT storage_key AS "storageKey" FROM storage_deletions
      ORDER BY queued_at
      LIMIT $1
      FOR UPDATE SKIP LOCKED`,
    [limit],
  );
  return rows.map((row) => row.storageKey);
}

export async function forgetQueuedDeletions(sql: Sql, keys: readonly string[]): Promise<void> {
  await sql.query(`DELETE FROM storage_deletions WHERE storage_key = ANY($1::text[])`, [keys]);
}
