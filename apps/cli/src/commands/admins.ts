import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import {
  audited,
  changeOperator,
  createOperator,
  createPrismaClient,
  databaseNameOf,
  databaseUrlFromEnv,
  endOperatorSessions,
  hashPassword,
  LastAdminError,
  type NewAuditEntry,
  type Operator,
  type OperatorChange,
  resetOperatorPassword,
  serverAddressOf,
} from '@hallmark/db';
import { byCli } from '../cli-audit.ts';
import { type CliIo, type Command, UsageError } from '../io.ts';

const EMAIL = /^[^@\s]+@[^@\s]+$/;

/**
 * Operator accounts of the admin console, on the database: create one (the password is
 * HALLMARK_ADMIN_PASSWORD when set, at least 12 characters, else generated and printed once; only
 * its scrypt hash is stored), list them, and what an admin does in the console to an account
 * that should no longer act: disable or enable it, change its role, end its sessions, give it a
 * new password. Every change is audited as the CLI's system user; at least one enabled admin
 * always remains.
 */
export const admins: Command = async (args, io) => {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { role: { type: 'string', default: 'viewer' } },
  });
  const email = positionals[0]?.toLowerCase();
  if (action !== 'list' && (email === undefined || !EMAIL.test(email))) {
    throw new UsageError("the operator's email is required");
  }
  const role = action === 'role' ? positionals[1] : values.role;
  if (role !== 'admin' && role !== 'viewer') {
    throw new UsageError(
      action === 'role' ? 'the role is admin or viewer' : '--role is admin or viewer',
    );
  }
  const databaseUrl = databaseUrlFromEnv(io.env);
  io.stderr(`database ${databaseNameOf(databaseUrl)} on ${serverAddressOf(databaseUrl)}\n`);
  const prisma = createPrismaClient(databaseUrl);
  try {
    switch (action) {
      case 'create':
        return await create(prisma, io, email ?? '', role);
      case 'list': {
        const rows = await prisma.operator.findMany({ orderBy: { createdAt: 'asc' } });
        for (const row of rows) {
          const state = row.disabledAt === null ? 'enabled ' : 'disabled';
          io.stdout(`${row.role.padEnd(6)}  ${state}  ${row.email}\n`);
        }
        return 0;
      }
      case 'disable':
      case 'enable':
      case 'role':
        return await change(
          prisma,
          io,
          email ?? '',
          action === 'role' ? { role } : { disabled: action === 'disable' },
        );
      case 'sign-out':
      case 'reset':
        return await endAccess(prisma, io, email ?? '', action);
      default:
        throw new UsageError(`unknown action "${action ?? ''}"`);
    }
  } finally {
    await prisma.$disconnect();
  }
};

type Prisma = ReturnType<typeof createPrismaClient>;

async function create(prisma: Prisma, io: CliIo, email: string, role: Operator['role']) {
  const given = io.env.HALLMARK_ADMIN_PASSWORD;
  if (given !== undefined && given.length < 12) {
    throw new UsageError('HALLMARK_ADMIN_PASSWORD must have at least 12 characters');
  }
  const password = given ?? randomBytes(18).toString('base64url');
  await audited(
    prisma,
    (tx) => createOperator(tx, email, role, password),
    (operator) => entry(io, 'operator.create', operator.email, { role }),
  );
  io.stderr(
    `Created ${role} ${email}.${given === undefined ? ' The password is shown once:' : ''}\n`,
  );
  if (given === undefined) io.stdout(`${password}\n`);
  return 0;
}

async function change(prisma: Prisma, io: CliIo, email: string, wanted: OperatorChange) {
  const id = await operatorId(prisma, io, email);
  if (id === null) return 1;
  try {
    await audited(
      prisma,
      (tx) => changeOperator(tx, id, wanted),
      (done) => (done === null ? null : entry(io, 'operator.change', done.email, wanted)),
    );
  } catch (error) {
    if (!(error instanceof LastAdminError)) throw error;
    io.stderr(`Refused: ${error.message}; make another operator admin first. Nothing changed.\n`);
    return 1;
  }
  io.stdout(`Changed ${email}: ${JSON.stringify(wanted)}.\n`);
  return 0;
}

async function endAccess(prisma: Prisma, io: CliIo, email: string, action: 'sign-out' | 'reset') {
  const id = await operatorId(prisma, io, email);
  if (id === null) return 1;
  if (action === 'sign-out') {
    const ended = await audited(
      prisma,
      (tx) => endOperatorSessions(tx, id),
      (sessions) => entry(io, 'operator.sign_out_all', email, { sessions }),
    );
    io.stdout(`Ended ${ended} session(s) of ${email}.\n`);
    return 0;
  }
  const password = randomBytes(18).toString('base64url');
  const passwordHash = await hashPassword(password);
  await audited(
    prisma,
    (tx) => resetOperatorPassword(tx, id, passwordHash),
    (done) => (done === null ? null : entry(io, 'operator.password_reset', email, {})),
  );
  io.stderr(`New password of ${email}, shown once (its sessions have ended):\n`);
  io.stdout(`${password}\n`);
  return 0;
}

async function operatorId(prisma: Prisma, io: CliIo, email: string): Promise<string | null> {
  const operator = await prisma.operator.findUnique({ where: { email }, select: { id: true } });
  if (operator === null) io.stderr(`No operator ${email}.\n`);
  return operator?.id ?? null;
}

function entry(io: CliIo, action: string, email: string, details: object): NewAuditEntry {
  return { ...byCli(io), action, target: `operator:${email}`, details };
}
