import type { Sql } from './sql.ts';

// The reconciler's statements, alike for every queued row (a job, a verification): a row whose
// status is unfinished and that nothing changed for a while may have lost its queue entry. Both
// tables keep `updated_at` current on every change, so it is the row's idle clock.

export type QueuedTable = 'watermark_jobs' | 'verifications';

/**
 * Unfinished rows unchanged since `idleSince`, the longest idle first. With `leased`, none that
 * a live run holds: a run renewing its lease works on the row, however long ago it changed.
 */
export async function findIdleRows(
  sql: Sql,
  table: QueuedTable,
  idleSince: Date,
  limit: number,
  leased: boolean,
): Promise<string[]> {
  const live = leased ? 'AND (lease_expires_at IS NULL OR lease_expires_at < $3)' : '';
  const { rows } = await sql.query<{ id: string }>(
    `SELECT id FROM ${table}
      WHERE status IN ('pending', 'processing') AND updated_at < $1 ${live}
      ORDER BY updated_at LIMIT $2`,
    leased ? [idleSince, limit, new Date()] : [idleSince, limit],
  );
  return rows.map((row) => row.id);
}

/** Restarts an unfinished row's idle clock once it is queued again: the next passes leave it. */
export async function markRequeued(sql: Sql, table: QueuedTable, id: string): Promise<void> {
  await sql.query(
    `UPDATE ${table} SET updated_at = $2 WHERE id = $1 AND status IN ('pending', 'processing')`,
    [id, new Date()],
  );
}
