import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/prisma/client.ts';
import type { Sql } from './statements/sql.ts';

export type { PrismaClient };

/**
 * Prisma ends an interactive transaction that waited 2 s for a connection or ran 5 s by
 * default, which a busy pool or a loaded machine reaches with short, correct transactions (a
 * registration that takes an advisory lock): the caller got a 500. Our transactions are a few
 * statements; these bounds are for a database that stopped answering, not for a slow one.
 */
const TRANSACTION_OPTIONS = { maxWait: 30_000, timeout: 60_000 } as const;

/**
 * A Prisma client over node-postgres (Prisma 7 has no built-in driver: the adapter is the
 * connection). Call `$disconnect()` when done, or the pool keeps the process alive.
 */
export function createPrismaClient(databaseUrl: string): PrismaClient {
  return new PrismaClient({
    adapter: new PrismaPg({ connectionString: databaseUrl }),
    transactionOptions: TRANSACTION_OPTIONS,
  });
}

/** A process's database: the Prisma client and the request path's statements on one pool. */
export interface Database {
  readonly prisma: PrismaClient;
  /** For `@hallmark/db`'s statements (findKeyByHash, claimUpload, findJobRun, ...). */
  readonly sql: Sql;
  /**
   * Runs `work` in one transaction on one pooled connection: committed when it resolves, rolled
   * back when it throws (for statements that must hold row locks across other work).
   */
  transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  /** Disconnects Prisma, then closes the pool. */
  close(): Promise<void>;
}

/**
 * One `pg` pool shared by both. `onIdleError` hears about pooled connections that fail while
 * idle (a database restart or failover): the pool drops them and opens new ones on demand, but
 * an `error` event nobody listens to would end the process, and the statements may use the pool
 * long before Prisma, whose adapter adds a listener only when it first connects.
 */
export function createDatabase(
  databaseUrl: string,
  onIdleError: (error: Error) => void = () => undefined,
  /** Connections the pool opens at most; more callers wait for one. */
  poolMax = 10,
): Database {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolMax });
  pool.on('error', onIdleError);
  const prisma = new PrismaClient({
    adapter: new PrismaPg(pool),
    transactionOptions: TRANSACTION_OPTIONS,
  });
  return {
    prisma,
    sql: pool,
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      try {
        await prisma.$disconnect();
      } finally {
        await pool.end();
      }
    },
  };
}
