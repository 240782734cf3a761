import { randomUUID } from 'node:crypto';
import type { Sql } from './sql.ts';

// One document on IPFS can be held by several rows: identical metadata gives the same CID, for
// any key. Pinning it for a new record and unpinning it when its last record is removed must not
// interleave, or the unpin lands after the new record's pin and the record names content the
// node dropped. Both run inside a transaction holding this CID's lock.

/** Holds the lock of IPFS content `cid` until the transaction ends. */
export async function lockIpfsContent(sql: Sql, cid: string): Promise<void> {
  await sql.query("SELECT pg_advisory_xact_lock(hashtext('hallmark.ipfs-content'), hashtext($1))", [
    cid,
  ]);
}

/** The job's IPFS record, once: false when the job has one already. */
export async function insertIpfsRecord(
  sql: Sql,
  record: { jobId: string; apiKeyId: string; cid: string; metadata: object },
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `INSERT INTO ipfs_records (id, job_id, api_key_id, cid, metadata, stored_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6) ON CONFLICT (job_id) DO NOTHING`,
    [
      randomUUID(),
      record.jobId,
      record.apiKeyId,
      record.cid,
      JSON.stringify(record.metadata),
      new Date(),
    ],
  );
  return rowCount === 1;
}

/**
 * Marks the key's records of `cid` removed; answers whether anything still holds the content
 * (another live record, of any key, or an NFT): only then may it stay pinned.
 */
export async function removeIpfsRecords(
  sql: Sql,
  apiKeyId: string,
  cid: string,
): Promise<{ stillHeld: boolean }> {
  await sql.query(
    `UPDATE ipfs_records SET removed_at = $3
      WHERE cid = $1 AND api_key_id = $2 AND removed_at IS NULL`,
    [cid, apiKeyId, new Date()],
  );
  const { rows } = await sql.query<{ held: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM ipfs_records WHERE cid = $1 AND removed_at IS NULL)
         OR EXISTS (SELECT 1 FROM nfts WHERE image_cid = $1 OR metadata_cid = $1) AS held`,
    [cid],
  );
  return { stillHeld: rows[0]?.held === true };
}
