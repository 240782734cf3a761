import { createHash, randomBytes } from 'node:crypto';
import { appendAudit, audited } from './audit.ts';
import type { AuditEntry, Operator, PrismaClient } from './generated/prisma/client.ts';
import { hashPassword, verifyPassword } from './password-hashing.ts';

export type { AuditEntry, Operator };

export const hashSessionToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

export async function createOperator(
  prisma: Pick<PrismaClient, 'operator'>,
  email: string,
  role: Operator['role'],
  password: string,
): Promise<Operator> {
  return prisma.operator.create({
    data: { email: email.toLowerCase(), role, passwordHash: await hashPassword(password) },
  });
}

export interface SignInPolicy {
  /** Failed sign-ins in a row that lock the account. */
  readonly maxFailures: number;
  readonly lockMs: number;
  readonly sessionMs: number;
}

export type SignIn =
  | { readonly kind: 'signed_in'; readonly token: string; readonly operator: Operator }
  | { readonly kind: 'locked'; readonly until: Date }
  | { readonly kind: 'refused' };

/**
 * Checks the password and opens a session. Failures count against the account and lock it for
 * `lockMs` at `maxFailures`; while locked even the right password is refused. An unknown email
 * costs the same scrypt as a known one, so timing does not tell which addresses exist.
 *
 * Each attempt first takes one of the account's `maxFailures` tries in a single statement (the
 * try that reaches the limit locks the account), and only then checks the password: guesses sent
 * in parallel cannot all read "no failures yet", so no more than `maxFailures` passwords are ever
 * checked per lock. The right password gives its try back and clears the count.
 */
export async function signIn(
  prisma: PrismaClient,
  email: string,
  password: string,
  policy: SignInPolicy,
  from: string,
): Promise<SignIn> {
  const normalized = email.toLowerCase();
  const now = new Date();
  const lockUntil = new Date(now.getTime() + policy.lockMs);
  const failed = (operatorId: string | null, reason: string) =>
    appendAudit(prisma, {
      operatorId,
      actor: 'anonymous',
      action: 'operator.sign_in_failed',
      target: `operator:${normalized}`,
      details: { reason },
      address: from,
    });
  const [attempt] = await prisma.$queryRaw<
    Array<{ id: string; password_hash: string; locked_until: Date | null }>
  >`
    UPDATE operators
       SET failed_sign_ins = CASE WHEN failed_sign_ins + 1 >= ${policy.maxFailures}
                                  THEN 0 ELSE failed_sign_ins + 1 END,
           locked_until = CASE WHEN failed_sign_ins + 1 >= ${policy.maxFailures}
                               THEN ${lockUntil} ELSE locked_until END
     WHERE email = ${normalized} AND disabled_at IS NULL
       AND (locked_until IS NULL OR locked_until <= ${now})
     RETURNING id, password_hash, locked_until`;
  if (attempt === undefined) {
    const operator = await prisma.operator.findUnique({ where: { email: normalized } });
    // A locked or disabled account costs the same scrypt as an unknown email: timing does not
    // tell them apart.
    await verifyPassword(password, UNKNOWN_OPERATOR_HASH);
    if (operator?.disabledAt != null) {
      await failed(operator.id, 'disabled');
      return { kind: 'refused' };
    }
    if (operator?.lockedUntil != null && operator.lockedUntil > now) {
      await failed(operator.id, 'locked');
      return { kind: 'locked', until: operator.lockedUntil };
    }
    await failed(operator?.id ?? null, operator === null ? 'unknown_email' : 'locked');
    return { kind: 'refused' };
  }
  const ok = await verifyPassword(password, attempt.password_hash);
  if (!ok) {
    await failed(attempt.id, 'wrong_password');
    return attempt.locked_until !== null && attempt.locked_until > now
      ? { kind: 'locked', until: attempt.locked_until }
      : { kind: 'refused' };
  }
  const token = randomBytes(32).toString('base64url');
  const operator = await audited(
    prisma,
    async (tx) => {
      const signedIn = await tx.operator.update({
        where: { id: attempt.id },
        data: { failedSignIns: 0, lockedUntil: null },
      });
      await tx.operatorSession.create({
        data: {
          operatorId: signedIn.id,
          tokenHash: hashSessionToken(token),
          expiresAt: new Date(now.getTime() + policy.sessionMs),
        },
      });
      return signedIn;
    },
    (signedIn) => ({
      operatorId: signedIn.id,
      actor: signedIn.email,
      action: 'operator.sign_in',
      target: `operator:${signedIn.email}`,
      address: from,
    }),
  );
  return { kind: 'signed_in', token, operator };
}

/** A fixed hash of a password nobody has, verified when the email is unknown (see signIn). */
const UNKNOWN_OPERATOR_HASH =
  'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/**
 * The operator of a live session, or null (unknown, ended, expired, or idle longer than
 * `idleMs`); a live one is marked seen now. The check and the mark are one conditional update, so
 * a session cannot be revived by a request racing its idle end.
 */
export async function operatorOfSession(
  prisma: Pick<PrismaClient, 'operatorSession'>,
  token: string,
  idleMs: number,
): Promise<Operator | null> {
  const now = new Date();
  const tokenHash = hashSessionToken(token);
  const { count } = await prisma.operatorSession.updateMany({
    where: {
      tokenHash,
      endedAt: null,
      expiresAt: { gt: now },
      lastSeenAt: { gt: new Date(now.getTime() - idleMs) },
    },
    data: { lastSeenAt: now },
  });
  if (count === 0) return null;
  const session = await prisma.operatorSession.findUnique({
    where: { tokenHash },
    include: { operator: true },
  });
  // Disabling ends the sessions too; this also holds for one that raced it.
  return session?.operator.disabledAt == null ? (session?.operator ?? null) : null;
}

/** Ends the operator's session and records the sign-out, in one transaction. */
export async function endSession(
  prisma: PrismaClient,
  token: string,
  operator: Pick<Operator, 'id' | 'email'>,
  from: string,
): Promise<void> {
  await audited(
    prisma,
    (tx) =>
      tx.operatorSession.updateMany({
        where: { tokenHash: hashSessionToken(token), endedAt: null, operatorId: operator.id },
        data: { endedAt: new Date() },
      }),
    ({ count }) =>
      count === 0
        ? null
        : {
            operatorId: operator.id,
            actor: operator.email,
            action: 'operator.sign_out',
            target: `operator:${operator.email}`,
            address: from,
          },
  );
}

/** The operator `pnpm start` makes on a database that has none. */
export const DEV_OPERATOR_EMAIL = 'admin@hallmark.local';

/**
 * A development operator (admin) when the database has no operator at all: the password is
 * returned once, to be printed. A database with operators is left as it is.
 */
export async function ensureDevOperator(
  prisma: Pick<PrismaClient, 'operator'>,
): Promise<{ readonly email: string; readonly password?: string }> {
  const any = await prisma.operator.findFirst({ select: { email: true } });
  if (any !== null) return { email: any.email };
  const password = randomBytes(18).toString('base64url');
  await createOperator(prisma, DEV_OPERATOR_EMAIL, 'admin', password);
  return { email: DEV_OPERATOR_EMAIL, password };
}
