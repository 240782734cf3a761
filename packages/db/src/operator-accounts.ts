import type { Operator, Prisma } from './generated/prisma/client.ts';

// What one admin (or the CLI on the server) may do to an operator's account: change the role,
// disable and enable it, end its sessions, give it a new password. Each runs inside the caller's
// transaction (with its audit entry). The deployment keeps at least one enabled admin: changes
// to accounts take one lock, so two admins demoting each other at once cannot both pass.

type Tx = Prisma.TransactionClient;

/** The change would leave no enabled admin to run the console. */
export class LastAdminError extends Error {
  override name = 'LastAdminError';
  constructor() {
    super('this would leave no enabled admin');
  }
}

export interface OperatorChange {
  readonly role?: Operator['role'];
  readonly disabled?: boolean;
}

async function lockAccounts(tx: Tx): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('hallmark.operator-accounts'))`;
}

async function assertAnAdminLeft(tx: Tx): Promise<void> {
  const admins = await tx.operator.count({ where: { role: 'admin', disabledAt: null } });
  if (admins === 0) throw new LastAdminError();
}

/** Ends every live session of the operator; answers how many. */
export async function endOperatorSessions(tx: Tx, operatorId: string): Promise<number> {
  const { count } = await tx.operatorSession.updateMany({
    where: { operatorId, endedAt: null },
    data: { endedAt: new Date() },
  });
  return count;
}

/**
 * Changes the role or the disabled state; disabling ends the sessions at once. Null when there
 * is no such operator; throws LastAdminError (nothing changed) rather than leave no admin.
 */
export async function changeOperator(
  tx: Tx,
  operatorId: string,
  change: OperatorChange,
): Promise<Operator | null> {
  await lockAccounts(tx);
  const current = await tx.operator.findUnique({ where: { id: operatorId } });
  if (current === null) return null;
  const disabledAt =
    change.disabled === undefined
      ? current.disabledAt
      : change.disabled
        ? (current.disabledAt ?? new Date())
        : null;
  const updated = await tx.operator.update({
    where: { id: operatorId },
    data: { role: change.role ?? current.role, disabledAt },
  });
  if (updated.disabledAt !== null) await endOperatorSessions(tx, operatorId);
  await assertAnAdminLeft(tx);
  return updated;
}

/**
 * A new password for the operator (its scrypt hash, made by the caller before the transaction;
 * the password is shown once by the caller), with the failure count and lock cleared and every
 * session ended. Null when there is no such operator.
 */
export async function resetOperatorPassword(
  tx: Tx,
  operatorId: string,
  passwordHash: string,
): Promise<Operator | null> {
  const { count } = await tx.operator.updateMany({
    where: { id: operatorId },
    data: { passwordHash, failedSignIns: 0, lockedUntil: null },
  });
  if (count === 0) return null;
  await endOperatorSessions(tx, operatorId);
  return tx.operator.findUnique({ where: { id: operatorId } });
}
