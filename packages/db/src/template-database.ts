// Test databases are copies of one migrated template. A test run makes dozens of databases, and
// running every migration through the schema engine for each costs far more CPU than the
// server's own copy of a template (CREATE DATABASE ... TEMPLATE); figures in the README.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { pgErrorCode, withPgClient } from './database-admin.ts';
import { withDatabaseName } from './database-url.ts';
import { applyMigrations } from './migrations.ts';
import {
  listMigrationNames,
  MIGRATION_FILE_NAME,
  MIGRATIONS_DIR,
  SCHEMA_PATH,
} from './migrations-folder.ts';

const OBJECT_IN_USE = '55006';
/** Only a hang ends the retries of a copy whose template is briefly in use (autovacuum). */
const COPY_RETRY_MS = 120_000;

/**
 * The name of a database on the server of `serverUrl` holding exactly this package's migrations,
 * made on first use. Its name is the hash of the schema and the migrations, so every test process
 * and every checkout with the same migrations shares it, and a changed migration makes a new one.
 * Made once even when many processes ask at once: under an advisory lock, built under a temporary
 * name and renamed when complete, so a process that dies while building leaves nothing usable.
 */
export async function migratedTemplate(serverUrl: string): Promise<string> {
  const name = `hallmark_template_${await migrationsHash()}`;
  const maintenance = withDatabaseName(serverUrl, 'postgres');
  const exists = (client: pg.Client) =>
    client
      .query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
      .then((result) => result.rowCount === 1);
  return withPgClient(maintenance, async (client) => {
    if (await exists(client)) return name;
    const lock = BigInt.asIntN(64, BigInt(`0x${name.slice(-16)}`)).toString();
    await client.query('SELECT pg_advisory_lock($1::bigint)', [lock]);
    try {
      if (await exists(client)) return name;
      const building = `${name}_building`;
      await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(building)}`);
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(building)}`);
      await applyMigrations(withDatabaseName(serverUrl, building));
      await client.query(
        `ALTER DATABASE ${pg.escapeIdentifier(building)} RENAME TO ${pg.escapeIdentifier(name)}`,
      );
      return name;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1::bigint)', [lock]);
    }
  });
}

/** CREATE DATABASE `databaseName` as a copy of `template`, on the server of `serverUrl`. */
export async function copyDatabase(
  serverUrl: string,
  template: string,
  databaseName: string,
): Promise<void> {
  const deadline = Date.now() + COPY_RETRY_MS;
  await withPgClient(withDatabaseName(serverUrl, 'postgres'), async (client) => {
    for (;;) {
      try {
        await client.query(
          `CREATE DATABASE ${pg.escapeIdentifier(databaseName)} TEMPLATE ${pg.escapeIdentifier(template)}`,
        );
        return;
      } catch (error) {
        // The server refuses to copy a database another session is connected to.
        if (pgErrorCode(error) !== OBJECT_IN_USE || Date.now() > deadline) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
}

async function migrationsHash(): Promise<string> {
  const hash = createHash('sha256').update(await readFile(SCHEMA_PATH));
  for (const migration of await listMigrationNames(MIGRATIONS_DIR)) {
    hash.update(migration);
    hash.update(await readFile(join(MIGRATIONS_DIR, migration, MIGRATION_FILE_NAME)));
  }
  return hash.digest('hex').slice(0, 16);
}
