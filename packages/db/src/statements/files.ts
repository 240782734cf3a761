import type { File } from '../generated/prisma/client.ts';
import type { Sql } from './sql.ts';

/** The columns of a file row that receiving, checking and watermarking an upload need. */
export type UploadFile = Pick<File, 'id' | 'status' | 'contentType' | 'storageKey'>;

const UPLOAD_FILE = `id, status, content_type AS "contentType", storage_key AS "storageKey"`;

export interface NewFile {
  readonly id: string;
  readonly apiKeyId: string;
  readonly fileName: string;
  readonly contentType: string;
  readonly storageKey: string;
}

/** A file row awaiting its upload. */
export async function insertFile(sql: Sql, file: NewFile): Promise<void> {
  await sql.query(
    `INSERT INTO files (id, api_key_id, file_name, content_type, storage_key, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [file.id, file.apiKeyId, file.fileName, file.contentType, file.storageKey, new Date()],
  );
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
 * makes a link single-use under concurrent PUTs. Null when nothing was claimed (the caller reads
 * the row to say why).
 */
export async function claimUpload(
  sql: Sql,
  key: string,
  contentType: string,
): Promise<UploadFile | null> {
  const { rows } = await sql.query<UploadFile>(
    `UPDATE files SET status = 'uploading'
      WHERE storage_key = $1 AND status = 'awaiting_upload' AND content_type = $2
      RETURNING ${UPLOAD_FILE}`,
    [key, contentType],
  );
  return rows[0] ?? null;
}

/** A refused upload makes its link usable again. */
export async function releaseUpload(sql: Sql, id: string): Promise<void> {
  await sql.query(`UPDATE files SET status = 'awaiting_upload' WHERE id = $1`, [id]);
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
