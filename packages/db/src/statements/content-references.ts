import type { Sql } from './sql.ts';

/** A marked job whose output is still stored but which has no content reference yet. */
export interface MissingReference {
  readonly requestId: string;
  readonly storageKey: string;
}

/**
 * The next `limit` marked jobs (after `after`, by id) with a stored output and no content
 * reference: jobs marked before references were kept. Outputs deleted by retention are left out,
 * and counted apart by countReferencesLost.
 */
export async function findMissingReferences(
  sql: Sql,
  after: string | null,
  limit: number,
): Promise<MissingReference[]> {
  const { rows } = await sql.query<MissingReference>(
    `SELECT id AS "requestId", output_storage_key AS "storageKey"
       FROM watermark_jobs
      WHERE mark_payload IS NOT NULL AND output_storage_key IS NOT NULL
        AND output_deleted_at IS NULL AND content_reference IS NULL
        AND ($1::uuid IS NULL OR id > $1::uuid)
      ORDER BY id
      LIMIT $2`,
    [after, limit],
  );
  return rows;
}

/** Marked jobs without a reference whose output retention deleted: they stay not compared. */
export async function countReferencesLost(sql: Sql): Promise<number> {
  const { rows } = await sql.query<{ count: string }>(
    `SELECT count(*) AS count FROM watermark_jobs
      WHERE mark_payload IS NOT NULL AND output_storage_key IS NOT NULL
        AND output_deleted_at IS NOT NULL AND content_reference IS NULL`,
  );
  return Number(rows[0]?.count ?? 0);
}

/** Stores a job's content reference, unless one was stored meanwhile. */
export async function storeContentReference(
  sql: Sql,
  requestId: string,
  reference: Uint8Array,
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE watermark_jobs SET content_reference = $2
      WHERE id = $1 AND content_reference IS NULL`,
    [requestId, reference],
  );
  return rowCount === 1;
}
