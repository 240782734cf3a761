import type { ApiKey } from '../generated/prisma/client.ts';
import type { Sql } from './sql.ts';

export type KeyCredential = Pick<ApiKey, 'id' | 'revokedAt' | 'lastUsedAt' | 'rateLimitPerMinute'>;

/** The key whose SHA-256 is `hash`, revoked or not. */
export async function findKeyByHash(sql: Sql, hash: string): Promise<KeyCredential | null> {
  const { rows } = await sql.query<KeyCredential>({
    name: 'find-key-by-hash',
    text: `SELECT id, revoked_at AS "revokedAt", last_used_at AS "lastUsedAt",
            rate_limit_per_minute AS "rateLimitPerMinute"
       FROM api_keys WHERE hash = $1`,
    values: [hash],
  });
  return rows[0] ?? null;
}

/** What an access token's key allows now: undefined if there is no such key. */
export async function keyStatus(
  sql: Sql,
  id: string,
): Promise<Pick<ApiKey, 'revokedAt' | 'rateLimitPerMinute'> | undefined> {
  const { rows } = await sql.query<Pick<ApiKey, 'revokedAt' | 'rateLimitPerMinute'>>({
    name: 'key-status',
    text: `SELECT revoked_at AS "revokedAt", rate_limit_per_minute AS "rateLimitPerMinute"
       FROM api_keys WHERE id = $1`,
    values: [id],
  });
  return rows[0];
}

export async function touchKey(sql: Sql, id: string, at: Date): Promise<void> {
  await sql.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [id, at]);
}
