import { findOwnedFile, type Sql } from '@hallmark/db';
import { problemTypes } from '@hallmark/schemas';
import { ProblemException } from '../problem/problem.exception.ts';

/**
 * Why a job cannot use this file, as the problem to answer: it is missing or another key's
 * (404), deleted by retention (410), or not uploaded yet (409). Resolves when it is usable.
 */
export async function assertFileUsable(
  sql: Sql,
  apiKeyId: string,
  fileId: string,
  purpose: 'watermark' | 'verify',
): Promise<void> {
  const file = await findOwnedFile(sql, fileId, apiKeyId);
  if (file === null) throw ProblemException.notFound(`No file ${fileId}.`);
  if (file.deletedAt !== null) {
    throw new ProblemException(
      problemTypes.fileDeleted,
      `File ${fileId} was deleted on ${file.deletedAt.toISOString()} by this deployment's retention; upload it again.`,
    );
  }
  if (file.status !== 'uploaded') throw notUploaded(purpose);
}

export function notUploaded(purpose: 'watermark' | 'verify'): ProblemException {
  return new ProblemException(
    problemTypes.fileNotUploaded,
    `Upload the file (PUT to its uploadLink) before asking to ${purpose} it.`,
  );
}
