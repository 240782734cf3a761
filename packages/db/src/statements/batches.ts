import type { Sql } from './sql.ts';
import { changeWithEvents } from './webhook-events.ts';

/**
 * Completes every batch none of whose jobs is pending or processing any more, once, with its
 * `batch.completed` event. Run after jobs end, from any number of workers: the conditional
 * update completes a batch exactly once, and a batch whose last job ended on a worker that then
 * died is completed by the next run anywhere.
 */
export async function completeBatches(sql: Sql): Promise<number> {
  const event = {
    type: `'batch.completed'`,
    data: `jsonb_build_object('batchId', s.id, 'counts', s.counts)`,
  };
  const change = `UPDATE watermark_batches b SET completed_at = $1
                   WHERE b.completed_at IS NULL
                     AND NOT EXISTS (SELECT 1 FROM watermark_jobs j
                                      WHERE j.batch_id = b.id AND j.status IN ('pending', 'processing'))
                   RETURNING b.id, b.api_key_id,
                             (SELECT jsonb_build_object(
                                       'success', count(*) FILTER (WHERE j.status = 'success'),
                                       'failed', count(*) FILTER (WHERE j.status = 'failed'))
                                FROM watermark_jobs j WHERE j.batch_id = b.id) AS counts`;
  return changeWithEvents(sql, change, event, [new Date()], '$1');
}

/** What a batch was made with: the client's Idempotency-Key and its request's hash. */
export interface BatchRequestKey {
  readonly idempotencyKey: string | null;
  readonly requestHash: string | null;
}

/**
 * A new batch row; its jobs go in with it, in the same transaction (see completeBatches). A
 * second batch with the same Idempotency-Key of the key fails on the unique index.
 */
export async function insertBatch(
  sql: Sql,
  id: string,
  apiKeyId: string,
  request: BatchRequestKey,
): Promise<void> {
  await sql.query(
    `INSERT INTO watermark_batches (id, api_key_id, idempotency_key, request_hash)
     VALUES ($1, $2, $3, $4)`,
    [id, apiKeyId, request.idempotencyKey, request.requestHash],
  );
}

/** The batch a key made with this Idempotency-Key, if any. */
export async function findBatchByIdempotencyKey(
  sql: Sql,
  apiKeyId: string,
  idempotencyKey: string,
): Promise<{ readonly id: string; readonly requestHash: string | null } | null> {
  const { rows } = await sql.query<{ id: string; requestHash: string | null }>(
    `SELECT id, request_hash AS "requestHash" FROM watermark_batches
      WHERE api_key_id = $1 AND idempotency_key = $2`,
    [apiKeyId, idempotencyKey],
  );
  return rows[0] ?? null;
}
