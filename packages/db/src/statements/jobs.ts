import type { File, WatermarkJob } from '../generated/prisma/client.ts';
import { storageLeft } from './quotas.ts';
import type { Sql } from './sql.ts';

// Every UPDATE of a job sets updated_at: the reconciler finds stuck jobs by it (Prisma's
// @updatedAt does this for its own updates). Timestamps come from the application's clock, as
// Prisma's do, because the reconciler compares them with that clock.

export interface NewJob {
  readonly id: string;
  readonly apiKeyId: string;
  readonly fileId: string;
  readonly options: object;
  readonly idempotencyKey: string | null;
  readonly requestHash: string | null;
  readonly batchId?: string | null;
  /** When set, the job is written only while the key stores less than this many bytes. */
  readonly storageQuotaBytes?: number;
  /** When set, the job is written only if its file is of one of these content types. */
  readonly contentTypes?: readonly string[] | null;
}

/**
 * A pending job, written only if its file is the key's and uploaded (the check and the write in
 * one statement), given `storageQuotaBytes` only while the key stores less, and given
 * `contentTypes` only for a file of one of them: false otherwise. It reserves its file's size
 * under the quota until its output is stored (or it fails). Throws a unique violation when the
 * idempotency key is taken.
 */
export async function insertJob(sql: Sql, job: NewJob): Promise<boolean> {
  const { rowCount } = await sql.query({
    name: 'insert-job',
    text: `INSERT INTO watermark_jobs
       (id, api_key_id, file_id, options, idempotency_key, request_hash, created_at, updated_at,
        batch_id, reserved_bytes)
     SELECT $1::uuid, f.api_key_id, f.id, $4::jsonb, $5::text, $6::text, $7::timestamptz,
            $7::timestamptz, $8::uuid, coalesce(f.size_bytes, 0)
       FROM files f
      WHERE f.id = $3::uuid AND f.api_key_id = $2::uuid AND f.status = 'uploaded'
        AND f.deleted_at IS NULL
        AND ($9::bigint IS NULL OR ${storageLeft('$2::uuid', '$9::bigint')})
        AND ($10::text[] IS NULL OR f.content_type = ANY($10::text[]))`,
    values: [
      job.id,
      job.apiKeyId,
      job.fileId,
      JSON.stringify(job.options),
      job.idempotencyKey,
      job.requestHash,
      new Date(),
      job.batchId ?? null,
      job.storageQuotaBytes ?? null,
      job.contentTypes ?? null,
    ],
  });
  return rowCount === 1;
}

export type IdempotentJob = Pick<WatermarkJob, 'id' | 'fileId' | 'requestHash'>;

export async function findJobByIdempotencyKey(
  sql: Sql,
  apiKeyId: string,
  idempotencyKey: string,
): Promise<IdempotentJob | null> {
  const { rows } = await sql.query<IdempotentJob>(
    `SELECT id, file_id AS "fileId", request_hash AS "requestHash"
       FROM watermark_jobs WHERE api_key_id = $1 AND idempotency_key = $2`,
    [apiKeyId, idempotencyKey],
  );
  return rows[0] ?? null;
}

/**
 * The columns of a job row its view needs (the hot path of polling reads no more). API processes
 * cache it; the watermark_job_changed trigger watches exactly these columns: keep both in step.
 */
export type JobViewRow = Pick<
  WatermarkJob,
  | 'id'
  | 'fileId'
  | 'status'
  | 'options'
  | 'outputStorageKey'
  | 'outputContentType'
  | 'outputDeletedAt'
  | 'errorCode'
  | 'errorMessage'
>;

/** Another key's job is not found, like a missing one. */
export async function findJobView(
  sql: Sql,
  id: string,
  apiKeyId: string,
): Promise<JobViewRow | null> {
  const { rows } = await sql.query<JobViewRow>({
    name: 'find-job-view',
    text: `SELECT id, file_id AS "fileId", status, options,
            output_storage_key AS "outputStorageKey", output_content_type AS "outputContentType",
            output_deleted_at AS "outputDeletedAt",
            error_code AS "errorCode", error_message AS "errorMessage"
       FROM watermark_jobs WHERE id = $1 AND api_key_id = $2`,
    values: [id, apiKeyId],
  });
  return rows[0] ?? null;
}

/** What the worker reads to run a job: the job and its input file, in one query. */
export type JobRun = Pick<
  WatermarkJob,
  'id' | 'apiKeyId' | 'fileId' | 'status' | 'options' | 'steps'
> & { readonly file: Pick<File, 'id' | 'storageKey' | 'contentType'> };

export async function findJobRun(sql: Sql, id: string): Promise<JobRun | null> {
  const { rows } = await sql.query<
    Omit<JobRun, 'file'> & { storageKey: string; contentType: string }
  >(
    `SELECT j.id, j.api_key_id AS "apiKeyId", j.file_id AS "fileId", j.status, j.options, j.steps,
            f.storage_key AS "storageKey", f.content_type AS "contentType"
       FROM watermark_jobs j JOIN files f ON f.id = j.file_id
      WHERE j.id = $1`,
    [id],
  );
  const row = rows[0];
  if (row === undefined) return null;
  const { storageKey, contentType, ...job } = row;
  return { ...job, file: { id: job.fileId, storageKey, contentType } };
}
