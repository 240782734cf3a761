import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import {
  audited,
  createOperator,
  createPrismaClient,
  databaseNameOf,
  databaseUrlFromEnv,
  serverAddressOf,
} from '@hallmark/db';
import { byCli } from '../cli-audit.ts';
import { type Command, UsageError } from '../io.ts';

/**
 * Makes an operator account for the admin console. The password is HALLMARK_ADMIN_PASSWORD when
 * set (at least 12 characters), else generated and printed once; only its scrypt hash is stored.
 */
export const admins: Command = async (args, io) => {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { role: { type: 'string', default: 'viewer' } },
  });
  if (action !== 'create') throw new UsageError(`unknown action "${action ?? ''}"`);
  const email = positionals[0];
  if (email === undefined || !/^[^@\s]+@[^@\s]+$/.test(email)) {
    throw new UsageError("the operator's email is required");
  }
  const role = values.role;
  if (role !== 'admin' && role !== 'viewer') throw new UsageError('--role is admin or viewer');
  const given = io.env.HALLMARK_ADMIN_PASSWORD;
  if (given !== undefined && given.length < 12) {
    throw new UsageError('HALLMARK_ADMIN_PASSWORD must have at least 12 characters');
  }
  const password = given ?? randomBytes(18).toString('base64url');
  const databaseUrl = databaseUrlFromEnv(io.env);
  io.stderr(`database ${databaseNameOf(databaseUrl)} on ${serverAddressOf(databaseUrl)}\n`);
  const prisma = createPrismaClient(databaseUrl);
  try {
    await audited(
      prisma,
      (tx) => createOperator(tx, email, role, password),
      (operator) => ({
        ...byCli(io),
        action: 'operator.create',
        target: `operator:${operator.email}`,
        details: { role },
      }),
    );
  } finally {
    await prisma.$disconnect();
  }
  io.stderr(
    `Created ${role} ${email}.${given === undefined ? ' The password is shown once:' : ''}\n`,
  );
  if (given === undefined) io.stdout(`${password}\n`);
  return 0;
};
