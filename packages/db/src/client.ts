import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.ts';

export type { PrismaClient };

/**
 * A Prisma client over node-postgres (Prisma 7 has no built-in driver: the adapter is the
 * connection). Call `$disconnect()` when done, or the pool keeps the process alive.
 */
export function createPrismaClient(databaseUrl: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
}
