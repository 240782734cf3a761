import type { File } from '../generated/prisma/client.ts';
import { storageLeft } from './quotas.ts';
import type { Sql } from './sql.ts';

/** The columns of a file row that receiving, checking and watermarking an upload need. */
export type UploadFile = Pick<File, 'id' | 'status' | 'contentType' | 'storageKey' | 'deletedAt'>;

const UPLOAD_FILE = `id, status, content_type AS "contentType", storage_key AS "storageKey",
  deleted_at AS "deletedAt"`;

export interface NewFile {
  readonly id: string;
  readonly apiKeyId: string;
  readonly fileName: string;
  readonly contentType: string;
  readonly storageKey: string;
}

/** A file row awaiting its upload. */
export async function insertFile(
  sql: Sql,
  file: NewFile,
  storageQuotaBytes?: number,
): Promise<boolean> {
  // With a quota the row is written only while the key stores less (check and write in one
  // statement): false when it does not.
  const { rowCount } = await sql.query({
    name: 'insert-file',
    text: `INSERT INTO files (id, api_key_id, file_name, content_type, storage_key, created_at)
     SELECT $1, $2, $3, $4, $5, $6
      WHERE $7::bigint IS NULL OR ${storageLeft('$2', '$7::bigint')}`,
    values: [
      file.id,
      file.apiKeyId,
      file.fileName,
      file.contentType,
      file.storageKey,
      new Date(),
      storageQuotaBytes ?? null,
    ],
  });
  return rowCount === 1;
}

export async function findFileByStorageKey(sql: Sql, key: string): Promise<UploadFile | null> {
  const { rows } = await sql.query<UploadFile>(
    `SELECT ${UPLOAD_FILE} FROM files WHERE storage_key = $1`,
    [key],
  );
  return rows[0] ?? null;
}

/** Another key's file is not found, like a missing one. */
export async function findOwnedFile(
  sql: Sql,
  id: string,
  apiKeyId: string,
): Promise<UploadFile | null> {
  const { rows } = await sql.query<UploadFile>(
    `SELECT ${UPLOAD_FILE} FROM files WHERE id = $1 AND api_key_id = $2`,
    [id, apiKeyId],
  );
  return rows[0] ?? null;
}

/**
 * Marks the upload at `key` as streaming in, if it awaits one with this content type; the guard
 * makes a link single-use under concurrent PUTs. An upload left `uploading` since before
 * `staleBefore` (its process died mid-upload; no request can run that long) is taken over. Null
 * when nothing was claimed (the caller reads the row to say why).
 */
export async function claimUpload(
  sql: Sql,
  key: string,
  contentType: string,
  staleBefore: Date,
): Promise<UploadFile | null> {
  const { rows } = await sql.query<UploadFile>(
    `UPDATE files SET status = 'uploading', upload_started_at = $3
      WHERE storage_key = $1 AND content_type = $2 AND deleted_at IS NULL
        AND (status = 'awaiting_upload' OR (status = 'uploading' AND upload_started_at < $4))
      RETURNING ${UPLOAD_FILE}`,
    [key, contentType, new Date(), staleBefore],
  );
  return rows[0] ?? null;
}

/**
 * Uploads left `uploading` since before `staleBefore` await their upload again (the process
 * that received them died); returns their storage keys, whose partial bytes may be removed.
 */
export async function recoverStaleUploads(sql: Sql, staleBefore: Date): Promise<string[]> {
  const { rows } = await sql.query<{ storageKey: string }>(
    `UPDATE files SET status = 'awaiting_upload', upload_started_at = NULL
      WHERE status = 'uploading' AND upload_started_at < $1
      RETURNING storage_key AS "storageKey"`,
    [staleBefore],
  );
  return rows.map((row) => row.storageKey);
}

/** A refused upload makes its link usable again. */
export async function releaseUpload(sql: Sql, id: string): Promise<void> {
  await sql.query(
    `UPDATE files SET status = 'awaiting_upload', upload_started_at = NULL WHERE id = $1`,
    [id],
  );
}

export interface UploadedBytes {
  readonly sizeBytes: number;
  readonly sha256: string;
  readonly detectedContentType: string;
}

export async function completeUpload(
  sql: Sql,
  id: string,
  bytes: UploadedBytes,
): Promise<UploadFile> {
  const { rows } = await sql.query<UploadFile>(
    `UPDATE files
        SET status = 'uploaded', size_bytes = $2, sha256 = $3, detected_content_type = $4,
            uploaded_at = $5
      WHERE id = $1
      RETURNING ${UPLOAD_FILE}`,
    [id, bytes.sizeBytes, bytes.sha256, bytes.detectedContentType, new Date()],
  );
  const file = rows[0];
  if (file === undefined) throw new Error(`file ${id} vanished while its upload completed`);
  return file;
}
