import type { Sql } from './sql.ts';

// Per-key quotas, checked before a request is accepted. The mint quota is exact: one conditional
// upsert both checks the day's count and takes a slot (concurrent requests queue on the row). The
// storage quota is a sum over the key's stored files and outputs, checked before each upload and
// job: concurrent requests may pass it together by at most their own sizes.

/** The UTC calendar day of `at`, as the mint counter's key. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Takes one of the key's mint slots for `day`; false when all `limit` are taken. */
export async function takeMintSlot(
  sql: Sql,
  apiKeyId: string,
  day: string,
  limit: number,
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `INSERT INTO mint_counts (api_key_id, day, count)
     SELECT $1::uuid, $2::date, 1 WHERE $3::int >= 1
     ON CONFLICT (api_key_id, day) DO UPDATE SET count = mint_counts.count + 1
      WHERE mint_counts.count < $3::int`,
    [apiKeyId, day, limit],
  );
  return rowCount === 1;
}

/** Gives back a slot taken for a request that was then refused for another reason. */
export async function returnMintSlot(sql: Sql, apiKeyId: string, day: string): Promise<void> {
  await sql.query(
    `UPDATE mint_counts SET count = count - 1
      WHERE api_key_id = $1 AND day = $2::date AND count > 0`,
    [apiKeyId, day],
  );
}

/** Bytes the key has stored now: its uploads and its outputs not yet deleted by retention. */
export async function storedBytes(sql: Sql, apiKeyId: string): Promise<number> {
  const { rows } = await sql.query<{ bytes: string }>(
    'SELECT bytes FROM storage_usage WHERE api_key_id = $1',
    [apiKeyId],
  );
  return Number(rows[0]?.bytes ?? 0);
}

/**
 * The condition "the key stores less than its quota", for a statement that writes only then:
 * `$key` and `$quota` name its parameters. storage_usage is kept by triggers (migration
 * storage_usage), so this reads one row where a sum would read every file of the key.
 */
export function storageLeft(key: string, quota: string): string {
  return `coalesce((SELECT bytes FROM storage_usage WHERE api_key_id = ${key}), 0) < ${quota}`;
}
