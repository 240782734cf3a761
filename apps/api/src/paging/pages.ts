import { problemTypes } from '@hallmark/schemas';
import { z } from 'zod';
import { ProblemException } from '../problem/problem.exception.ts';

/** A stable page cursor: the last row's sort key (time, id), opaque to clients. */
function encodeCursor(at: Date, id: string): string {
  return Buffer.from(`${at.toISOString()}|${id}`).toString('base64url');
}

/** Row ids of every paged list are uuids; a cursor's time lies within what PostgreSQL holds. */
const RowId = z.uuid();
const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(9999, 11, 31);

function decodeCursor(cursor: string): { readonly at: Date; readonly id: string } {
  const [iso, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const at = new Date(iso ?? '');
  const time = at.getTime();
  // A cursor a client made up is refused here: the database would fail on it (a 500).
  if (
    rest.length > 0 ||
    id === undefined ||
    !RowId.safeParse(id).success ||
    Number.isNaN(time) ||
    time < EARLIEST ||
    time > LATEST
  ) {
    throw new ProblemException(
      problemTypes.validationError,
      'The cursor is not one this API gave.',
      [{ path: 'cursor', message: 'Unknown cursor' }],
    );
  }
  return { at, id };
}

/**
 * The rows past `cursor` in an order over (`field`, id): later ones when ascending, earlier ones
 * when descending. Rows added meanwhile never shift a page, so a cursor stays valid.
 */
export function pastCursor<Field extends string>(
  cursor: string | undefined,
  field: Field,
  direction: 'asc' | 'desc',
): object {
  if (cursor === undefined) return {};
  const { at, id } = decodeCursor(cursor);
  const beyond = direction === 'asc' ? 'gt' : 'lt';
  return { OR: [{ [field]: { [beyond]: at } }, { [field]: at, id: { [beyond]: id } }] };
}

/**
 * A page from `limit + 1` fetched rows: the first `limit`, and the cursor of the last of them when
 * there are more.
 */
export function pageOf<Row extends { readonly id: string }>(
  rows: readonly Row[],
  limit: number,
  sortKeyOf: (row: Row) => Date,
): { readonly page: Row[]; readonly nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    page,
    nextCursor:
      rows.length > limit && last !== undefined ? encodeCursor(sortKeyOf(last), last.id) : null,
  };
}
