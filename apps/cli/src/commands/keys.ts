import { parseArgs } from 'node:util';
import {
  createPrismaClient,
  databaseNameOf,
  databaseUrlFromEnv,
  issueApiKey,
  revokeApiKey,
  serverAddressOf,
} from '@hallmark/db';
import { type Command, UsageError } from '../io.ts';

/**
 * API keys for operators on the server: straight on the database, because the admin console
 * that will front this does not exist yet. A new key is printed once; only its hash is stored.
 */
export const keys: Command = async (args, io) => {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { name: { type: 'string' }, json: { type: 'boolean', default: false } },
  });
  const databaseUrl = databaseUrlFromEnv(io.env);
  // Several instances can share one PostgreSQL server: say which database this is, every time.
  io.stderr(`database ${databaseNameOf(databaseUrl)} on ${serverAddressOf(databaseUrl)}\n`);
  const prisma = createPrismaClient(databaseUrl);
  try {
    switch (action) {
      case 'create': {
        if (values.name === undefined) throw new UsageError('--name is required');
        const key = await issueApiKey(prisma, values.name);
        io.stderr(`Created key ${key.prefix} (${values.name}). It is shown once:\n`);
        io.stdout(`${key.plaintext}\n`);
        return 0;
      }
      case 'list': {
        const rows = await prisma.apiKey.findMany({ orderBy: { createdAt: 'asc' } });
        const view = rows.map((row) => ({
          prefix: row.prefix,
          name: row.name,
          createdAt: row.createdAt.toISOString(),
          lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
          revokedAt: row.revokedAt?.toISOString() ?? null,
        }));
        if (values.json) {
          io.stdout(`${JSON.stringify(view, null, 2)}\n`);
        } else {
          for (const row of view) {
            io.stdout(
              `${row.prefix}  ${row.revokedAt === null ? 'active ' : 'revoked'}  ${row.name}\n`,
            );
          }
        }
        return 0;
      }
      case 'revoke': {
        const prefix = positionals[0];
        if (prefix === undefined) throw new UsageError('the key prefix (hm_xxxxxxxx) is required');
        if (!(await revokeApiKey(prisma, prefix))) {
          io.stderr(`No active key ${prefix}.\n`);
          return 1;
        }
        io.stdout(`Revoked ${prefix}; its access tokens stop working now.\n`);
        return 0;
      }
      default:
        throw new UsageError(`unknown action "${action ?? ''}"`);
    }
  } finally {
    await prisma.$disconnect();
  }
};
