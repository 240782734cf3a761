import { parseArgs } from 'node:util';
import {
  audited,
  createPrismaClient,
  databaseNameOf,
  databaseUrlFromEnv,
  issueApiKey,
  revokeApiKey,
  serverAddressOf,
} from '@hallmark/db';
import { byCli } from '../cli-audit.ts';
import { type Command, UsageError } from '../io.ts';

/**
 * API keys for operators on the server, straight on the database (the console does the same
 * through the admin API). A new key is printed once; only its hash is stored. Each change is
 * audited as the CLI's system user.
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
        const name = values.name;
        const key = await audited(
          prisma,
          (tx) => issueApiKey(tx, name),
          (issued) => ({
            ...byCli(io),
            action: 'api_key.create',
            target: `api_key:${issued.prefix}`,
            details: { name },
          }),
        );
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
        const revoked = await audited(
          prisma,
          (tx) => revokeApiKey(tx, prefix),
          (done) =>
            done ? { ...byCli(io), action: 'api_key.revoke', target: `api_key:${prefix}` } : null,
        );
        if (!revoked) {
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
