// The driver adapter the WASM schema engine talks to PostgreSQL through: @prisma/adapter-pg,
// plus three repairs that the engine needs and that Prisma's own factory lacks in 7.10.0.
import { PrismaPg } from '@prisma/adapter-pg';
import type {
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { createTemporaryDatabase } from './temporary-database.ts';

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

interface RowDescriptionMessage {
  fields: { dataTypeID: number }[];
}

/**
 * Repair 1: the engine reads the catalog (e.g. `pg_constraint.contype`), whose columns use
 * PostgreSQL's internal one-byte `"char"` type. adapter-pg rejects that type ("Column type 'char'
 * could not be deserialized"), so every diff against a database fails. The value arrives as text
 * anyway; we relabel the column type before pg builds the result.
 */
function reportCharColumnsAsText(message: RowDescriptionMessage): void {
  for (const field of message.fields) {
    if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
  }
}

function createEnginePool(databaseUrl: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  // An idle client's error (server restart) must not crash the process; the next query reports it.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    // Prepended so it runs before pg's own handler, which consumes the field list.
    client.connection.prependListener('rowDescription', reportCharColumnsAsText);
  });
  return pool;
}

/**
 * Repair 3: adapter-pg's executeScript splits a script at every `;`, which cuts a function body
 * (`$$ ... $$`, as the storage_usage triggers have) apart. PostgreSQL runs a script sent whole as
 * one simple query, in one implicit transaction, so it is sent whole; errors are reported the way
 * the adapter reports them.
 */
function runScriptsWhole(adapter: SqlDriverAdapter, pool: pg.Pool): SqlDriverAdapter {
  const report = (adapter as unknown as { onError(error: unknown): never }).onError.bind(adapter);
  adapter.executeScript = async (script: string) => {
    try {
      await pool.query(script);
    } catch (error) {
      report(error);
    }
  };
  return adapter;
}

export interface MigrationAdapterFactory extends SqlMigrationAwareDriverAdapterFactory {
  /** Ends the pool and drops any shadow database the engine did not release. */
  close(): Promise<void>;
}

/**
 * Repair 2: PrismaPg.connectToShadowDb() creates the shadow database, then opens it with
 * `{ ...config, database }`; pg lets a `connectionString` override `database`, so the "shadow"
 * connection lands on the main database, which the engine then resets. We create and drop
 * shadow databases ourselves.
 */
export function createMigrationAdapterFactory(databaseUrl: string): MigrationAdapterFactory {
  const pool = createEnginePool(databaseUrl);
  const main = new PrismaPg(pool);
  const openShadows = new Set<() => Promise<void>>();

  return {
    provider: main.provider,
    adapterName: main.adapterName,
    connect: async () => runScriptsWhole(await main.connect(), pool),
    async connectToShadowDb(): Promise<SqlDriverAdapter> {
      const shadow = await createTemporaryDatabase(databaseUrl, 'hallmark_shadow');
      const shadowPool = createEnginePool(shadow.url);
      const adapter = runScriptsWhole(await new PrismaPg(shadowPool).connect(), shadowPool);
      const releaseAdapter = adapter.dispose.bind(adapter);
      const release = async (): Promise<void> => {
        openShadows.delete(release);
        await releaseAdapter();
        await shadowPool.end();
        await shadow.drop();
      };
      openShadows.add(release);
      adapter.dispose = release;
      return adapter;
    },
    async close(): Promise<void> {
      await Promise.all([...openShadows].map((release) => release()));
      await pool.end();
    },
  };
}
