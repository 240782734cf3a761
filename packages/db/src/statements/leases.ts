import type { Sql } from './sql.ts';

// A leased row is held by one run at a time: `lease_token` names the run, `lease_expires_at`
// ends its hold unless the run renews it. Every write of a run is conditional on its token, so a
// run that lost the row (another claimed it after the lease lapsed) changes nothing. Jobs and
// NFT transfers are leased rows; they differ only in what else a held row must be.

export interface LeasedTable {
  readonly table: 'watermark_jobs' | 'nft_transfers';
  /** The status a held row has; a released or finished row matches no hold. */
  readonly heldStatus: string | null;
  /**
   * Whether only a live lease may be renewed. A job's lapsed lease is a crash of its run (the
   * next claim counts it), so its run must not quietly revive it.
   */
  readonly renewsLiveOnly: boolean;
}

export const JOB_LEASE: LeasedTable = {
  table: 'watermark_jobs',
  heldStatus: 'processing',
  renewsLiveOnly: true,
};

export const TRANSFER_LEASE: LeasedTable = {
  table: 'nft_transfers',
  heldStatus: null,
  renewsLiveOnly: false,
};

/**
 * The condition "row `id` is held by token `token`" (SQL expressions, usually parameters), of
 * the row aliased `alias` if given; with `liveAt`, also "and its lease runs at that time".
 */
export function heldBy(
  leased: LeasedTable,
  hold: { readonly id: string; readonly token: string; readonly alias?: string; liveAt?: string },
): string {
  const column = (name: string) => (hold.alias === undefined ? name : `${hold.alias}.${name}`);
  return [
    `${column('id')} = ${hold.id}`,
    `${column('lease_token')} = ${hold.token}`,
    ...(leased.heldStatus === null ? [] : [`${column('status')} = '${leased.heldStatus}'`]),
    ...(hold.liveAt === undefined ? [] : [`${column('lease_expires_at')} >= ${hold.liveAt}`]),
  ].join(' AND ');
}

/** Extends the lease of the run holding `token`; false when it no longer holds the row. */
export async function renewHeldLease(
  sql: Sql,
  leased: LeasedTable,
  id: string,
  token: string,
  leaseMs: number,
): Promise<boolean> {
  const now = new Date();
  const until = new Date(now.getTime() + leaseMs);
  const { rowCount } = leased.renewsLiveOnly
    ? await sql.query(
        `UPDATE ${leased.table} SET lease_expires_at = $3
          WHERE ${heldBy(leased, { id: '$1', token: '$2', liveAt: '$4' })}`,
        [id, token, until, now],
      )
    : await sql.query(
        `UPDATE ${leased.table} SET lease_expires_at = $3
          WHERE ${heldBy(leased, { id: '$1', token: '$2' })}`,
        [id, token, until],
      );
  return rowCount === 1;
}
