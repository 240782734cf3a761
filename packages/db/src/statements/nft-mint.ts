import type { JobLease } from './job-lease.ts';
import { heldBy, JOB_LEASE } from './leases.ts';
import type { Sql } from './sql.ts';
import { changeWithEvents } from './webhook-events.ts';

// At most one mint transaction per job is ever broadcast. The run that signs first claims the
// job's NFT row with its lease token (only while it holds the job's live lease), then records the
// signed transaction on the row only if its claim still stands and no transaction is recorded;
// it broadcasts only after that write succeeded. Two runs racing (a lease lost mid-mint) cannot
// both record, so they cannot both broadcast; a later run finds the recorded transaction and
// looks it up on the chain, or re-sends those very bytes.

/** Job $4 is held by the run of token $2, its lease running at $3. */
const LIVE_HOLD = heldBy(JOB_LEASE, { alias: 'j', id: '$4', token: '$2', liveAt: '$3' });

/** Claims the right to sign the mint of `nftId` for the run holding `lease`. */
export async function claimMintSigning(sql: Sql, nftId: string, lease: JobLease): Promise<boolean> {
  const now = new Date();
  const { rowCount } = await sql.query(
    `UPDATE nfts n SET signing_token = $2, updated_at = $3
      WHERE n.id = $1 AND n.tx_hash IS NULL
        AND EXISTS (SELECT 1 FROM watermark_jobs j
                     WHERE j.id = n.job_id AND ${LIVE_HOLD})`,
    [nftId, lease.token, now, lease.jobId],
  );
  return rowCount === 1;
}

/** Records the signed mint before its broadcast; false when another run's claim replaced ours. */
export async function recordMintTransaction(
  sql: Sql,
  nftId: string,
  lease: JobLease,
  transaction: { txHash: string; rawTransaction: string },
): Promise<boolean> {
  const { rowCount } = await sql.query(
    `UPDATE nfts SET tx_hash = $3, raw_transaction = $4, updated_at = $5
      WHERE id = $1 AND signing_token = $2 AND tx_hash IS NULL`,
    [nftId, lease.token, transaction.txHash, transaction.rawTransaction, new Date()],
  );
  return rowCount === 1;
}

/**
 * Forgets a recorded transaction that can never be mined (its nonce was used by another), so
 * that the next run signs anew; only by the run that holds the job's lease.
 */
export async function forgetMintTransaction(
  sql: Sql,
  nftId: string,
  lease: JobLease,
  txHash: string,
): Promise<boolean> {
  const now = new Date();
  const { rowCount } = await sql.query(
    `UPDATE nfts n SET tx_hash = NULL, raw_transaction = NULL, signing_token = NULL,
            updated_at = $4
      WHERE n.id = $1 AND n.tx_hash = $3
        AND EXISTS (SELECT 1 FROM watermark_jobs j
                     WHERE ${heldBy(JOB_LEASE, { alias: 'j', id: 'n.job_id', token: '$2' })})`,
    [nftId, lease.token, txHash, now],
  );
  return rowCount === 1;
}

export interface MintRecord {
  readonly tokenId: string;
  readonly blockNumber: bigint;
  readonly mintedAt: Date;
  readonly gasUsed: bigint;
  readonly feeWei: string;
}

/**
 * Records the token a mint produced, with its `nft.minted` event, once: false when it was
 * recorded already. Whom it was minted to is its owner as of now; reads refresh it from the chain.
 */
export async function recordMintedToken(
  sql: Sql,
  nftId: string,
  token: MintRecord,
): Promise<boolean> {
  const event = {
    type: `'nft.minted'`,
    data: `jsonb_build_object('requestId', s.job_id, 'tokenId', s.token_id,
      'contract', s.contract_address, 'chainId', s.chain_id, 'owner', s.owner,
      'transactionHash', s.tx_hash)`,
  };
  const change = `UPDATE nfts SET token_id = $2, block_number = $3, minted_at = $4, gas_used = $5,
                          fee_wei = $6, owner = minted_to, owner_checked_at = $7, updated_at = $7
                    WHERE id = $1 AND token_id IS NULL
                    RETURNING id, api_key_id, job_id, token_id, contract_address, chain_id, owner,
                              tx_hash`;
  const values = [
    nftId,
    token.tokenId,
    token.blockNumber,
    token.mintedAt,
    token.gasUsed,
    token.feeWei,
    new Date(),
  ];
  return (await changeWithEvents(sql, change, event, values, '$7')) === 1;
}
