import type { Prisma, PrismaClient } from './generated/prisma/client.ts';

// The audit log is written in the transaction of the change it records: a change that commits
// has its entry, and an entry never names a change that rolled back. The database chains each
// entry to the one before (a sha256 over the previous hash and every field, set by a trigger)
// and refuses updates, deletes and truncation; verifyAuditChain finds what was changed behind
// the triggers' back (by a superuser, or a table owner who disabled them).

export interface NewAuditEntry {
  /** The operator who acted; null for the CLI on the server and a sign-in that failed. */
  readonly operatorId: string | null;
  /** Who acted, as it is now: the operator's email, `cli:<user>@<host>`, or `anonymous`. */
  readonly actor: string;
  readonly action: string;
  readonly target: string;
  readonly details?: object;
  readonly address: string;
}

type AuditWriter = Pick<PrismaClient, 'auditEntry'> | Pick<Prisma.TransactionClient, 'auditEntry'>;

export async function appendAudit(prisma: AuditWriter, entry: NewAuditEntry): Promise<void> {
  await prisma.auditEntry.create({ data: { ...entry, details: entry.details ?? {} } });
}

/**
 * Runs `change` and appends the entry `entryFor` makes of its result, in one transaction; when
 * `entryFor` answers null (nothing changed), nothing is appended.
 */
export async function audited<T>(
  prisma: PrismaClient,
  change: (tx: Prisma.TransactionClient) => Promise<T>,
  entryFor: (result: T) => NewAuditEntry | null,
): Promise<T> {
  return prisma.$transaction(async (tx) => {
    const result = await change(tx);
    const entry = entryFor(result);
    if (entry !== null) await appendAudit(tx, entry);
    return result;
  });
}

export interface AuditChainCheck {
  readonly entries: number;
  /** The first entry whose hash or link does not hold (changed, or one before it removed). */
  readonly firstBrokenId: string | null;
  /**
   * The last entry's hash (hex): kept outside the database, it shows that no entries were
   * removed from the end, which the chain alone cannot.
   */
  readonly head: string | null;
}

export async function verifyAuditChain(
  prisma: Pick<PrismaClient, '$queryRaw'>,
): Promise<AuditChainCheck> {
  const [row] = await prisma.$queryRaw<
    Array<{ entries: number; first_broken: bigint | null; head: Uint8Array | null }>
  >`
    WITH chain AS (
      SELECT e.id,
             e.hash IS NOT NULL
               AND e.prev_hash = coalesce(lag(e.hash) OVER (ORDER BY e.id), ''::bytea)
               AND e.hash = audit_entry_hash(e.prev_hash, e) AS intact
        FROM audit_entries e)
    SELECT count(*)::int AS entries,
           min(id) FILTER (WHERE NOT intact) AS first_broken,
           (SELECT hash FROM audit_entries ORDER BY id DESC LIMIT 1) AS head
      FROM chain`;
  return {
    entries: row?.entries ?? 0,
    firstBrokenId: row?.first_broken == null ? null : row.first_broken.toString(),
    head: row?.head == null ? null : Buffer.from(row.head).toString('hex'),
  };
}
