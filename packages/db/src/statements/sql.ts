import type pg from 'pg';
import { pgErrorCode } from '../database-admin.ts';

/**
 * The connection pool the request path's statements run on: the same `pg` pool the process's
 * Prisma client uses (see `createDatabase`), so both share connections and limits.
 *
 * The request path's statements are named (`{ name, text, values }`): PostgreSQL parses and plans
 * each once per connection instead of on every request. Their column lists are explicit, so a
 * migration that adds columns does not invalidate them.
 */
export type Sql = Pick<pg.Pool, 'query'>;

/** PostgreSQL's `unique_violation`: another row already holds the value. */
export function isUniqueViolation(error: unknown): boolean {
  return pgErrorCode(error) === '23505';
}
