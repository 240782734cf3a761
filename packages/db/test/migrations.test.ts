import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPgClient } from '../src/database-admin.ts';
import { databaseUrlFromEnv } from '../src/database-url.ts';
import { applyMigrations, pendingMigrations } from '../src/migrations.ts';
import { listMigrationNames, MIGRATIONS_DIR } from '../src/migrations-folder.ts';
import { createTemporaryDatabase, type TemporaryDatabase } from '../src/temporary-database.ts';

interface MigrationRow {
  id: string;
  checksum: string;
  finished_at: Date | null;
  migration_name: string;
  logs: string | null;
  rolled_back_at: Date | null;
  started_at: Date;
  applied_steps_count: number;
}

async function migrationRows(url: string): Promise<MigrationRow[]> {
  return withPgClient(url, async (client) => {
    const result = await client.query<MigrationRow>(
      'SELECT * FROM _prisma_migrations ORDER BY migration_name',
    );
    return result.rows;
  });
}

async function tableNames(url: string): Promise<string[]> {
  return withPgClient(url, async (client) => {
    const result = await client.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
    );
    return result.rows.map((row) => row.tablename);
  });
}

describe('applyMigrations on an empty database', () => {
  let database: TemporaryDatabase;
  let folder: string[];

  beforeAll(async () => {
    database = await createTemporaryDatabase(databaseUrlFromEnv(), 'hallmark_test');
    folder = await listMigrationNames();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('reports every migration as pending before the first run', async () => {
    expect(folder.length).toBeGreaterThan(0);
    expect(await pendingMigrations(database.url)).toEqual(folder);
  });

  it('applies the whole folder and creates the tables', async () => {
    expect(await applyMigrations(database.url)).toEqual(folder);
    expect(await tableNames(database.url)).toEqual(
      expect.arrayContaining(['_prisma_migrations', 'api_keys', 'files', 'watermark_jobs']),
    );
    expect(await pendingMigrations(database.url)).toEqual([]);
  });

  it('records _prisma_migrations as prisma migrate deploy does', async () => {
    const rows = await migrationRows(database.url);
    expect(rows.map((row) => row.migration_name)).toEqual(folder);
    for (const row of rows) {
      const sql = await readFile(join(MIGRATIONS_DIR, row.migration_name, 'migration.sql'));
      expect(row.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.logs).toBeNull();
      expect(row.applied_steps_count).toBe(1);
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('is a no-op when run again', async () => {
    const before = await migrationRows(database.url);
    expect(await applyMigrations(database.url)).toEqual([]);
    expect(await migrationRows(database.url)).toEqual(before);
  });
});
