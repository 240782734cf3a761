import type { HallmarkConfig, Logger } from '@hallmark/config';
import { createDatabase, type Database, type PrismaClient, type Sql } from '@hallmark/db';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { CONFIG, LOGGER } from './tokens.ts';

/**
 * The process's database: one pool of connections, opened lazily and closed on shutdown, used by
 * the Prisma client and by `@hallmark/db`'s statements of the request path.
 */
@Injectable()
export class PrismaService implements OnApplicationShutdown {
  readonly client: PrismaClient;
  readonly sql: Sql;
  readonly #database: Database;

  constructor(@Inject(CONFIG) config: HallmarkConfig, @Inject(LOGGER) logger: Logger) {
    this.#database = createDatabase(
      config.DATABASE_URL,
      (error) =>
        logger.warn({ err: error.message }, 'an idle database connection failed; it is replaced'),
      config.DATABASE_POOL_MAX,
    );
    this.client = this.#database.prisma;
    this.sql = this.#database.sql;
  }

  /** One transaction on one pooled connection (see Database.transaction). */
  transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    return this.#database.transaction(work);
  }

  /**
   * Closed in the last shutdown phase: services that finish work in hand (the worker's queue
   * consumers, in beforeApplicationShutdown) still record their outcome. Closed earlier, a job
   * running at SIGTERM could not write its end and stayed `processing` until its lease lapsed.
   */
  async onApplicationShutdown(): Promise<void> {
    await this.#database.close();
  }
}
