// `pnpm db:migration <name>`: turns the difference between the migrations folder and
// schema.prisma into a new migration directory, laid out as `prisma migrate dev` lays it out.
import { access, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type DiffOptions, diffSchemaAgainstMigrations } from './migrations.ts';
import {
  LOCKFILE_CONTENT,
  LOCKFILE_NAME,
  MIGRATION_FILE_NAME,
  MIGRATIONS_DIR,
} from './migrations-folder.ts';

export interface CreatedMigration {
  /** Directory name, e.g. `20250101120000_add_webhooks`. */
  name: string;
  directory: string;
  sql: string;
}

/** `YYYYMMDDHHMMSS` in UTC, the prefix Prisma gives migration directories. */
export function migrationTimestamp(date: Date): string {
  return date.toISOString().replace(/\D/g, '').slice(0, 14);
}

/** `Add webhooks!` → `add_webhooks`: safe as a directory name on every OS. */
export function normalizeMigrationName(name: string): string {
  const normalized = name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!normalized) throw new Error(`Invalid migration name "${name}": use letters and digits.`);
  return normalized;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/**
 * Writes `<migrationsDir>/<timestamp>_<name>/migration.sql` (and the lock file when missing).
 * Returns null and writes nothing when schema.prisma needs no migration.
 */
export async function createMigration(
  name: string,
  options: DiffOptions & { now?: Date } = {},
): Promise<CreatedMigration | null> {
  const migrationsDir = options.migrationsDir ?? MIGRATIONS_DIR;
  const directoryName = `${migrationTimestamp(options.now ?? new Date())}_${normalizeMigrationName(name)}`;
  const sql = await diffSchemaAgainstMigrations({ ...options, migrationsDir });
  if (!sql) return null;

  const directory = join(migrationsDir, directoryName);
  if (await exists(directory)) throw new Error(`Migration directory already exists: ${directory}`);
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, MIGRATION_FILE_NAME), sql, 'utf8');
  const lockfile = join(migrationsDir, LOCKFILE_NAME);
  if (!(await exists(lockfile))) await writeFile(lockfile, LOCKFILE_CONTENT, 'utf8');
  return { name: directoryName, directory, sql };
}
