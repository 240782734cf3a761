import type { Sql } from './sql.ts';

/** A watermark job of this deployment whose output exists: what a found mark can lead to. */
export interface IssuedRecord {
  readonly requestId: string;
  readonly fileId: string;
  readonly apiKeyId: string;
  readonly options: unknown;
  readonly markPayload: string | null;
  readonly manifestId: string | null;
  readonly fingerprint: string | null;
  readonly outputWidth: number | null;
  readonly outputHeight: number | null;
  /** The output's content reference (a small JPEG); null for jobs marked before references. */
  readonly contentReference: Uint8Array | null;
  /** SHA-256 of the stored output, 64 lowercase hex digits. */
  readonly outputSha256: string | null;
  readonly finishedAt: Date | null;
  readonly createdAt: Date;
}

const ISSUED = `SELECT id AS "requestId", file_id AS "fileId", api_key_id AS "apiKeyId", options,
       mark_payload AS "markPayload", manifest_id AS "manifestId", fingerprint,
       output_width AS "outputWidth", output_height AS "outputHeight",
       content_reference AS "contentReference", output_sha256 AS "outputSha256", finished_at AS "finishedAt", created_at AS "createdAt"
  FROM watermark_jobs`;

/** The job whose output carries this mark payload (unique), once its output was recorded. */
export async function findIssuedByPayload(
  sql: Sql,
  payloadHex: string,
): Promise<IssuedRecord | null> {
  const { rows } = await sql.query<IssuedRecord>(
    `${ISSUED} WHERE mark_payload = $1 AND output_storage_key IS NOT NULL`,
    [payloadHex],
  );
  return rows[0] ?? null;
}

/** The job whose signed output has this active manifest (unique). */
export async function findIssuedByManifest(
  sql: Sql,
  manifestId: string,
): Promise<IssuedRecord | null> {
  const { rows } = await sql.query<IssuedRecord>(`${ISSUED} WHERE manifest_id = $1`, [manifestId]);
  return rows[0] ?? null;
}

/** Where a job's manifest store is kept, by its manifest id. */
export async function findManifestStorageKey(sql: Sql, manifestId: string): Promise<string | null> {
  const { rows } = await sql.query<{ key: string | null }>(
    'SELECT manifest_storage_key AS key FROM watermark_jobs WHERE manifest_id = $1',
    [manifestId],
  );
  return rows[0]?.key ?? null;
}
