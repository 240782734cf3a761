import type { ApiKey } from '../generated/prisma/client.ts';
import type { Sql } from './sql.ts';

export type KeyCredential = Pick<ApiKey, 'id' | 'revokedAt' | 'lastUsedAt'>;

/** The key whose SHA-256 is `hash`, revoked or not. */
export async function findKeyByHash(sql: Sql, hash: string): Promise<KeyCredential | null> {
  const { rows } = await sql.query<KeyCredential>(
    `SELECT id, revoked_at AS "revokedAt", last_used_at AS "lastUsedAt"
       FROM api_keys WHERE hash = $1`,
    [hash],
  );
  return rows[0] ?? null;
}

/** When key `id` was revoked: null while it is active, undefined if there is no such key. */
export async function keyRevokedAt(sql: Sql, id: string): Promise<Date | null | undefined> {
  const { rows } = await sql.query<Pick<ApiKey, 'revokedAt'>>(
    'SELECT revoked_at AS "revokedAt" FROM api_keys WHERE id = $1',
    [id],
  );
  return rows[0] === undefined ? undefined : rows[0].revokedAt;
}

export async function touchKey(sql: Sql, id: string, at: Date): Promise<void> {
  await sql.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [id, at]);
}
