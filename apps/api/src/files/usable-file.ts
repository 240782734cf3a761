import { findOwnedFile, type Sql } from '@hallmark/db';
import { MEDIA_TYPES, mediaTypeOf, problemTypes } from '@hallmark/schemas';
import { ProblemException } from '../problem/problem.exception.ts';

/** The content types of the files the invisible mark can be embedded in. */
export const MARKABLE_CONTENT_TYPES: readonly string[] = MEDIA_TYPES.filter(
  (type) => type.markable,
).map((type) => type.mimeType);

/**
 * Why a job cannot use this file, as the problem to answer: it is missing or another key's
 * (404), deleted by retention (410), not uploaded yet (409), or, for a job that asks for the
 * invisible mark, of a kind that cannot carry it (422). Resolves when it is usable.
 */
export async function assertFileUsable(
  sql: Sql,
  apiKeyId: string,
  fileId: string,
  purpose: 'watermark' | 'verify',
  needsMark = false,
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
  if (needsMark && !MARKABLE_CONTENT_TYPES.includes(file.contentType)) {
    const type = mediaTypeOf(file.contentType);
    throw new ProblemException(
      problemTypes.markNotApplicable,
      `File ${fileId} is ${type === undefined ? file.contentType : `a ${type.kind} (${type.mimeType})`}, which cannot carry the invisible mark; ask for watermarkType ["c2pa"], which signs it. The mark is embedded in ${MARKABLE_CONTENT_TYPES.join(', ')} files.`,
      [
        {
          path: 'options.watermarkType',
          message: `invisible cannot be applied to ${file.contentType}`,
        },
      ],
    );
  }
}

export function notUploaded(purpose: 'watermark' | 'verify'): ProblemException {
  return new ProblemException(
    problemTypes.fileNotUploaded,
    `Upload the file (PUT to its uploadLink) before asking to ${purpose} it.`,
  );
}
