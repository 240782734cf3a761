import { randomUUID } from 'node:crypto';
import { heldBy, renewHeldLease, TRANSFER_LEASE } from './leases.ts';
import type { Sql } from './sql.ts';

// Transfers are few and must never run twice, so they are scheduled in their rows, like webhook
// deliveries: a worker claims one with SKIP LOCKED and a lease it renews while it waits for the
// chain; a worker that dies lets the lease lapse and the next claim resumes from the row.
//
// A transfer's status, changed by these statements and nowhere else:
//
//                     recordTransferTransaction         confirmTransfer
//   requestTransfer ─▶ pending ──────────────────▶ sent ──────────────▶ confirmed
//                        ▲  │                        │
//                        │  │ failTransfer           │ failTransfer (only once its transaction
//                        │  ▼                        │ was mined and reverted)
//                        │ failed ◀──────────────────┤
//                        └───────────────────────────┘ forgetTransferTransaction (its nonce
//                                                        was taken: it can never be mined)
//
// claimTransfer, renewTransferLease and releaseTransfer move only the lease. One token has at
// most one transfer that is not failed (requestTransfer holds the NFT's row while it looks).

/** A transfer as its owner sees it. */
export interface TransferView {
  readonly id: string;
  readonly toAddress: string;
  readonly status: 'pending' | 'sent' | 'confirmed' | 'failed';
  readonly txHash: string | null;
  readonly createdAt: Date;
  readonly confirmedAt: Date | null;
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
}

const TRANSFER_VIEW = `id, to_address AS "toAddress", status, tx_hash AS "txHash",
  created_at AS "createdAt", confirmed_at AS "confirmedAt", error_code AS "errorCode",
  error_message AS "errorMessage"`;

/**
 * A new transfer of an NFT, pending, unless the token has one that did not fail (then the id of
 * that one). Run it in a transaction: the NFT's row stays locked until it ends, so a concurrent
 * second request waits and sees the first.
 */
export async function requestTransfer(
  sql: Sql,
  request: { readonly nftId: string; readonly apiKeyId: string; readonly toAddress: string },
): Promise<{ readonly created: TransferView } | { readonly underWay: string }> {
  await sql.query('SELECT id FROM nfts WHERE id = $1 FOR UPDATE', [request.nftId]);
  const earlier = await sql.query<{ id: string }>(
    `SELECT id FROM nft_transfers WHERE nft_id = $1 AND status IN ('pending', 'sent', 'confirmed')
      LIMIT 1`,
    [request.nftId],
  );
  const underWay = earlier.rows[0];
  if (underWay !== undefined) return { underWay: underWay.id };
  const { rows } = await sql.query<TransferView>(
    `INSERT INTO nft_transfers (id, nft_id, api_key_id, to_address)
     VALUES ($1, $2, $3, $4) RETURNING ${TRANSFER_VIEW}`,
    [randomUUID(), request.nftId, request.apiKeyId, request.toAddress],
  );
  const created = rows[0];
  if (created === undefined) throw new Error('the transfer was not inserted');
  return { created };
}

export interface ClaimedTransfer {
  readonly id: string;
  readonly leaseToken: string;
  readonly tokenId: string;
  readonly nftId: string;
  readonly toAddress: string;
  readonly txHash: string | null;
  readonly rawTransaction: string | null;
  readonly attempts: number;
}

export async function claimTransfer(sql: Sql, leaseMs: number): Promise<ClaimedTransfer | null> {
  const now = new Date();
  const { rows } = await sql.query<ClaimedTransfer>(
    `UPDATE nft_transfers t
        SET lease_token = $1, lease_expires_at = $2, attempts = t.attempts + 1
       FROM (SELECT id FROM nft_transfers
              WHERE status IN ('pending', 'sent')
                AND (lease_expires_at IS NULL OR lease_expires_at < $3)
              ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED) due, nfts n
      WHERE t.id = due.id AND n.id = t.nft_id
      RETURNING t.id, t.lease_token AS "leaseToken", n.token_id AS "tokenId", t.nft_id AS "nftId",
                t.to_address AS "toAddress", t.tx_hash AS "txHash",
                t.raw_transaction AS "rawTransaction", t.attempts`,
    [randomUUID(), new Date(now.getTime() + leaseMs), now],
  );
  return rows[0] ?? null;
}

const HELD = heldBy(TRANSFER_LEASE, { id: '$1', token: '$2' });

export function renewTransferLease(
  sql: Sql,
  transfer: ClaimedTransfer,
  leaseMs: number,
): Promise<boolean> {
  return renewHeldLease(sql, TRANSFER_LEASE, transfer.id, transfer.leaseToken, leaseMs);
}

/** Before broadcast: the signed bytes, once; false when the lease was lost or one is recorded. */
export async function recordTransferTransaction(
  sql: Sql,
  transfer: ClaimedTransfer,
  txHash: string,
  rawTransaction: string,
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE nft_transfers SET tx_hash = $3, raw_transaction = $4, status = 'sent'
      WHERE ${HELD} AND tx_hash IS NULL`,
    [transfer.id, transfer.leaseToken, txHash, rawTransaction],
  );
  return rowCount === 1;
}

/** A recorded transaction that can never be mined (its nonce was taken): sign a new one. */
export async function forgetTransferTransaction(
  sql: Sql,
  transfer: ClaimedTransfer,
): Promise<void> {
  await sql.query(
    `UPDATE nft_transfers SET tx_hash = NULL, raw_transaction = NULL, status = 'pending'
      WHERE ${HELD}`,
    [transfer.id, transfer.leaseToken],
  );
}

/** Mined: the transfer is done and the token's owner is its recipient, as of now. */
export async function confirmTransfer(sql: Sql, transfer: ClaimedTransfer): Promise<boolean> {
  const now = new Date();
  const { rows } = await sql.query<{ confirmed: number }>(
    `WITH done AS (
       UPDATE nft_transfers SET status = 'confirmed', confirmed_at = $3, lease_token = NULL,
                                lease_expires_at = NULL
        WHERE ${HELD} RETURNING nft_id, to_address),
          owner AS (
       UPDATE nfts SET owner = done.to_address, owner_checked_at = $3, updated_at = $3
         FROM done WHERE nfts.id = done.nft_id)
     SELECT count(*)::int AS confirmed FROM done`,
    [transfer.id, transfer.leaseToken, now],
  );
  return rows[0]?.confirmed === 1;
}

/**
 * Ends the transfer as failed, only while that is true: when it has no recorded transaction, or
 * its transaction was mined and reverted (`settled`). A recorded transaction that is still out
 * there may be mined at any time; calling that transfer failed would let the token move after
 * its owner was told it had not, and a second transfer be accepted. False when refused.
 */
export async function failTransfer(
  sql: Sql,
  transfer: ClaimedTransfer,
  failure: { readonly code: string; readonly message: string; readonly settled: boolean },
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE nft_transfers SET status = 'failed', error_code = $3, error_message = $4,
            lease_token = NULL, lease_expires_at = NULL
      WHERE ${HELD} AND (tx_hash IS NULL OR $5::boolean)`,
    [transfer.id, transfer.leaseToken, failure.code, failure.message, failure.settled],
  );
  return rowCount === 1;
}

/** Gives the transfer back for a later try (after `retryInMs`), keeping what it recorded. */
export async function releaseTransfer(
  sql: Sql,
  transfer: ClaimedTransfer,
  retryInMs: number,
): Promise<void> {
  await sql.query(
    `UPDATE nft_transfers SET lease_token = NULL, lease_expires_at = $3 WHERE ${HELD}`,
    [transfer.id, transfer.leaseToken, new Date(Date.now() + retryInMs)],
  );
}
