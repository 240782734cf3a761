import {
  createPrismaClient,
  databaseNameOf,
  databaseUrlFromEnv,
  serverAddressOf,
  verifyAuditChain,
} from '@hallmark/db';
import { type Command, UsageError } from '../io.ts';

/**
 * Checks the audit log's hash chain: every entry's hash, and its link to the entry before. Exit 1
 * names the first entry changed (or the first after a removed one). The head hash printed is
 * worth keeping outside the database: a later head that does not follow from it shows entries
 * removed from the end, which the chain alone cannot.
 */
export const audit: Command = async (args, io) => {
  const [action, ...rest] = args;
  if (action !== 'verify' || rest.length > 0) {
    throw new UsageError(`unknown action "${[action, ...rest].join(' ')}"`);
  }
  const databaseUrl = databaseUrlFromEnv(io.env);
  io.stderr(`database ${databaseNameOf(databaseUrl)} on ${serverAddressOf(databaseUrl)}\n`);
  const prisma = createPrismaClient(databaseUrl);
  try {
    const check = await verifyAuditChain(prisma);
    if (check.firstBrokenId !== null) {
      io.stdout(
        `BROKEN at entry ${check.firstBrokenId}: it was changed, or an entry before it removed (${check.entries} entries).\n`,
      );
      return 1;
    }
    io.stdout(`intact: ${check.entries} entries, head ${check.head ?? '(empty)'}\n`);
    return 0;
  } finally {
    await prisma.$disconnect();
  }
};
