import { createHash, randomBytes } from 'node:crypto';
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
  prisma: Pick<PrismaClient, 'operator' | 'operatorSession' | '$queryRaw'>,
  email: string,
  password: string,
  policy: SignInPolicy,
): Promise<SignIn> {
  const address = email.toLowerCase();
  const now = new Date();
  const lockUntil = new Date(now.getTime() + policy.lockMs);
  const [attempt] = await prisma.$queryRaw<
    Array<{ id: string; password_hash: string; locked_until: Date | null }>
  >`
    UPDATE operators
       SET failed_sign_ins = CASE WHEN failed_sign_ins + 1 >= ${policy.maxFailures}
                                  THEN 0 ELSE failed_sign_ins + 1 END,
           locked_until = CASE WHEN failed_sign_ins + 1 >= ${policy.maxFailures}
                               THEN ${lockUntil} ELSE locked_until END
     WHERE email = ${address} AND (locked_until IS NULL OR locked_until <= ${now})
     RETURNING id, password_hash, locked_until`;
  if (attempt === undefined) {
    const operator = await prisma.operator.findUnique({ where: { email: address } });
    // A locked account costs the same scrypt as an unknown email: timing does not tell them apart.
    await verifyPassword(password, UNKNOWN_OPERATOR_HASH);
    if (operator?.lockedUntil != null && operator.lockedUntil > now) {
      return { kind: 'locked', until: operator.lockedUntil };
    }
    return { kind: 'refused' };
  }
  const ok = await verifyPassword(password, attempt.password_hash);
  if (!ok) {
    return attempt.locked_until !== null && attempt.locked_until > now
      ? { kind: 'locked', until: attempt.locked_until }
      : { kind: 'refused' };
  }
  const operator = await prisma.operator.update({
    where: { id: attempt.id },
    data: { failedSignIns: 0, lockedUntil: null },
  });
  const token = randomBytes(32).toString('base64url');
  await prisma.operatorSession.create({
    data: {
      operatorId: operator.id,
      tokenHash: hashSessionToken(token),
      expiresAt: new Date(now.getTime() + policy.sessionMs),
    },
  });
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
  return session?.operator ?? null;
}

export async function endSession(
  prisma: Pick<PrismaClient, 'operatorSession'>,
  token: string,
): Promise<void> {
  await prisma.operatorSession.updateMany({
    where: { tokenHash: hashSessionToken(token), endedAt: null },
    data: { endedAt: new Date() },
  });
}

export interface NewAuditEntry {
  readonly operatorId: string;
  readonly action: string;
  readonly target: string;
  readonly details?: object;
  readonly address: string;
}

export async function appendAudit(
  prisma: Pick<PrismaClient, 'auditEntry'>,
  entry: NewAuditEntry,
): Promise<void> {
  await prisma.auditEntry.create({ data: { ...entry, details: entry.details ?? {} } });
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
