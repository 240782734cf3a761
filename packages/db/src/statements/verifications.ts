import { findIdleRows, markRequeued } from './idle-rows.ts';
import type { Sql } from './sql.ts';
import { changeOneWithEvent, VERIFICATION_EVENT } from './webhook-events.ts';

// Verifications have no side effects outside their own row: a run that happens twice computes
// the same report, so unlike watermark jobs they need no lease, only "never change a finished
// row". Their status, changed by these statements and nowhere else:
//
//                          startVerification            finishVerification
//   insertVerification ─▶ pending ──────────▶ processing ──────────────▶ success
//                            │                  │  ▲  │
//                            │                  │  └──┘ startVerification: the next run
//                            └──────────────────┴──failVerification──▶ failed
//   insertFinishedVerification ─▶ success (an image verified in the request: a client's, the
//                                public page's or an operator's)
//
// success and failed are final. The reconciler re-queues verifications idle in pending or
// processing (findIdleVerifications) and restarts their idle clock (markVerificationRequeued),
// which changes no status.

export interface NewVerification {
  readonly id: string;
  readonly apiKeyId: string;
  readonly fileId: string;
  readonly idempotencyKey: string | null;
  readonly requestHash: string | null;
}

/** A pending verification of an uploaded file of this key; false when there is no such file. */
export async function insertVerification(
  sql: Sql,
  verification: NewVerification,
): Promise<boolean> {
  const now = new Date();
  const { rowCount } = await sql.query(
    `INSERT INTO verifications
       (id, api_key_id, file_id, idempotency_key, request_hash, created_at, updated_at)
     SELECT $1::uuid, f.api_key_id, f.id, $4::text, $5::text, $6::timestamptz, $6::timestamptz
       FROM files f
      WHERE f.id = $3::uuid AND f.api_key_id = $2::uuid AND f.status = 'uploaded'
        AND f.deleted_at IS NULL`,
    [
      verification.id,
      verification.apiKeyId,
      verification.fileId,
      verification.idempotencyKey,
      verification.requestHash,
      now,
    ],
  );
  return rowCount === 1;
}

/** What a finished verification found, as stored. */
export interface VerificationResult {
  readonly verdict: string;
  readonly markPayload: string | null;
  readonly manifestId: string | null;
  readonly report: object;
}

/** Who asked for a verification done at once (the `verification_origin` column). */
export type VerificationAsker =
  | { readonly origin: 'api'; readonly apiKeyId: string }
  | { readonly origin: 'public' }
  | { readonly origin: 'console'; readonly operatorId: string };

/**
 * A verification done at once (`POST /verify/file`, `POST /public/verify`, an operator's in the
 * console): recorded finished, with no file. A key id alone stands for a client's.
 */
export async function insertFinishedVerification(
  sql: Sql,
  id: string,
  asker: string | VerificationAsker,
  result: VerificationResult,
): Promise<void> {
  const who: VerificationAsker =
    typeof asker === 'string' ? { origin: 'api', apiKeyId: asker } : asker;
  const now = new Date();
  await sql.query(
    `INSERT INTO verifications
       (id, origin, api_key_id, operator_id, status, attempts, verdict, mark_payload,
        manifest_id, report, created_at, finished_at, updated_at)
     VALUES ($1, $2::verification_origin, $3, $4, 'success', 1, $5, $6, $7, $8, $9, $9, $9)`,
    [
      id,
      who.origin,
      who.origin === 'api' ? who.apiKeyId : null,
      who.origin === 'console' ? who.operatorId : null,
      result.verdict,
      result.markPayload,
      result.manifestId,
      JSON.stringify(result.report),
      now,
    ],
  );
}

export interface VerificationRow {
  readonly id: string;
  readonly apiKeyId: string;
  readonly fileId: string | null;
  readonly status: 'pending' | 'processing' | 'success' | 'failed';
  readonly requestHash: string | null;
  readonly report: unknown;
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
}

const ROW = `id, api_key_id AS "apiKeyId", file_id AS "fileId", status,
  request_hash AS "requestHash", report, error_code AS "errorCode",
  error_message AS "errorMessage"`;

/** Another key's verification is not found, like a missing one. */
export async function findVerification(
  sql: Sql,
  id: string,
  apiKeyId: string,
): Promise<VerificationRow | null> {
  const { rows } = await sql.query<VerificationRow>(
    `SELECT ${ROW} FROM verifications WHERE id = $1 AND api_key_id = $2`,
    [id, apiKeyId],
  );
  return rows[0] ?? null;
}

export async function findVerificationByIdempotencyKey(
  sql: Sql,
  apiKeyId: string,
  idempotencyKey: string,
): Promise<VerificationRow | null> {
  const { rows } = await sql.query<VerificationRow>(
    `SELECT ${ROW} FROM verifications WHERE api_key_id = $1 AND idempotency_key = $2`,
    [apiKeyId, idempotencyKey],
  );
  return rows[0] ?? null;
}

/** The file a verification run reads; null when the row is finished or gone. */
export async function startVerification(
  sql: Sql,
  id: string,
): Promise<{
  readonly storageKey: string;
  readonly contentType: string;
  readonly attempts: number;
} | null> {
  const { rows } = await sql.query<{ storageKey: string; contentType: string; attempts: number }>(
    `UPDATE verifications v SET status = 'processing', attempts = v.attempts + 1, updated_at = $2
       FROM files f
      WHERE v.id = $1 AND f.id = v.file_id AND v.status IN ('pending', 'processing')
      RETURNING f.storage_key AS "storageKey", f.content_type AS "contentType", v.attempts`,
    [id, new Date()],
  );
  return rows[0] ?? null;
}

export async function finishVerification(
  sql: Sql,
  id: string,
  result: VerificationResult,
): Promise<boolean> {
  return changeOneWithEvent(
    sql,
    `UPDATE verifications
        SET status = 'success', verdict = $2, mark_payload = $3, manifest_id = $4, report = $5,
            finished_at = $6, updated_at = $6
      WHERE id = $1 AND status IN ('pending', 'processing')`,
    VERIFICATION_EVENT,
    [
      id,
      result.verdict,
      result.markPayload,
      result.manifestId,
      JSON.stringify(result.report),
      new Date(),
    ],
    '$6',
  );
}

export async function failVerification(
  sql: Sql,
  id: string,
  code: string,
  message: string,
): Promise<boolean> {
  return changeOneWithEvent(
    sql,
    `UPDATE verifications
        SET status = 'failed', error_code = $2, error_message = $3, finished_at = $4,
            updated_at = $4
      WHERE id = $1 AND status IN ('pending', 'processing')`,
    VERIFICATION_EVENT,
    [id, code, message, new Date()],
    '$4',
  );
}

/** Unfinished verifications idle since `idleSince` (see idle-rows.ts). */
export function findIdleVerifications(sql: Sql, idleSince: Date, limit: number): Promise<string[]> {
  return findIdleRows(sql, 'verifications', idleSince, limit, false);
}

/** Restarts a re-queued verification's idle clock. */
export function markVerificationRequeued(sql: Sql, id: string): Promise<void> {
  return markRequeued(sql, 'verifications', id);
}
