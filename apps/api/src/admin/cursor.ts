import { problemTypes } from '@hallmark/schemas';
import { ProblemException } from '../problem/problem.exception.ts';

/** A stable page cursor: the last row's sort key (time, id), opaque to clients. */
export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(`${at.toISOString()}|${id}`).toString('base64url');
}

export function decodeCursor(cursor: string): { readonly at: Date; readonly id: string } {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const at = new Date(iso ?? '');
  if (id === undefined || id === '' || Number.isNaN(at.getTime())) {
    throw new ProblemException(
      problemTypes.validationError,
      'The cursor is not one this API gave.',
      [{ path: 'cursor', message: 'Unknown cursor' }],
    );
  }
  return { at, id };
}
