// Applying and authoring migrations without Prisma's native engine. The engine does the real work
// (same SQL, same `_prisma_migrations` bookkeeping, same advisory lock as `prisma migrate deploy`);
// this module only feeds it the folder and the schema.
import { pgErrorCode, withPgClient } from './database-admin.ts';
import { databaseUrlFromEnv, withDatabaseName } from './database-url.ts';
import {
  LOCKFILE_CONTENT,
  listMigrationNames,
  MIGRATIONS_DIR,
  readMigrationsFolder,
  readSchemaFile,
  SCHEMA_PATH,
} from './migrations-folder.ts';
import { withSchemaEngine } from './schema-engine.ts';
import type { Sql } from './statements/sql.ts';

export { ensureDatabase } from './database-admin.ts';
export { DatabaseUnreachableError } from './database-unreachable-error.ts';

const noFilters = { externalTables: [], externalEnums: [] };
const UNDEFINED_TABLE = '42P01';

export interface MigrationsOptions {
  /** Defaults to this package's prisma/migrations. */
  migrationsDir?: string;
}

/**
 * Applies the migrations not yet recorded in `_prisma_migrations`, in order, and records them.
 * Returns the names applied: empty when the database was up to date. The database must exist
 * (see ensureDatabase). Fails on a previously failed migration, as `migrate deploy` does.
 */
export async function applyMigrations(
  databaseUrl: string,
  options: MigrationsOptions = {},
): Promise<string[]> {
  const migrationsList = await readMigrationsFolder(options.migrationsDir ?? MIGRATIONS_DIR);
  const schema = await readSchemaFile(SCHEMA_PATH);
  return withSchemaEngine(databaseUrl, [schema], async (engine) => {
    const output = await engine.applyMigrations({ migrationsList, filters: noFilters });
    return output.appliedMigrationNames;
  });
}

/**
 * Migrations in the folder that the database has not successfully applied, oldest first; all of
 * them when `_prisma_migrations` does not exist yet. One cheap query, meant for readiness checks:
 * give it the process's pool (`Sql`) so a probe borrows a connection instead of opening one.
 */
export async function pendingMigrations(
  database: string | Sql,
  options: MigrationsOptions = {},
): Promise<string[]> {
  const inFolder = await listMigrationNames(options.migrationsDir ?? MIGRATIONS_DIR);
  const applied =
    typeof database === 'string'
      ? await withPgClient(database, appliedMigrations)
      : await appliedMigrations(database);
  return inFolder.filter((name) => !applied.has(name));
}

async function appliedMigrations(sql: Sql): Promise<Set<string>> {
  try {
    // The same test Prisma uses: finished and not rolled back. A failed one stays pending.
    const result = await sql.query<{ migration_name: string }>(
      'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
    return new Set(result.rows.map((row) => row.migration_name));
  } catch (error) {
    if (pgErrorCode(error) === UNDEFINED_TABLE) return new Set<string>();
    throw error;
  }
}

export interface DiffOptions extends MigrationsOptions {
  /**
   * A PostgreSQL server where a temporary shadow database can be created and dropped; the
   * database this URL names is not touched. Defaults to DATABASE_URL.
   */
  serverUrl?: string;
  /** The target schema's text. Defaults to the content of prisma/schema.prisma. */
  schema?: string;
}

/**
 * The SQL that takes a database from "all migrations applied" to schema.prisma; '' when the
 * migrations already produce the schema (no drift).
 *
 * Why `diff` and not the engine's `createMigration`: the WASM build of createMigration refuses to
 * run ("shadow DB must be provided through an external factory") even with a shadow-capable
 * adapter, while `diff` from the migrations folder replays them in a shadow database obtained
 * from our adapter factory and compares. Both print the same SQL the CLI would write.
 */
export async function diffSchemaAgainstMigrations(options: DiffOptions = {}): Promise<string> {
  const migrationsList = await readMigrationsFolder(options.migrationsDir ?? MIGRATIONS_DIR);
  // The engine needs the lock file to know the connector, even for the very first migration.
  migrationsList.lockfile.content ??= LOCKFILE_CONTENT;
  const schema =
    options.schema === undefined
      ? await readSchemaFile(SCHEMA_PATH)
      : { path: SCHEMA_PATH, content: options.schema };
  // The engine insists on a live main connection even though diff only uses the shadow database;
  // the maintenance database always exists, the application database may not yet.
  const serverUrl = withDatabaseName(options.serverUrl ?? databaseUrlFromEnv(), 'postgres');
  return withSchemaEngine(serverUrl, [schema], async (engine) => {
    const result = await engine.diff({
      from: { tag: 'migrations', ...migrationsList },
      to: { tag: 'schemaDatamodel', files: [schema] },
      script: true,
      // With exitCode set the engine says whether the diff is empty (0) or not (2); its script
      // for "no change" is a comment, not an empty string.
      exitCode: true,
      filters: noFilters,
    });
    return result.exitCode === 0 ? '' : (result.stdout ?? '');
  });
}
