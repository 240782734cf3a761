// `@hallmark/db/testing`: a real, migrated, throw-away PostgreSQL database per test suite, so
// suites can run in parallel and never see each other's rows.
import { databaseUrlFromEnv } from './database-url.ts';
import { applyMigrations } from './migrations.ts';
import { createTemporaryDatabase, type TemporaryDatabase } from './temporary-database.ts';

export type TestDatabase = TemporaryDatabase;

/**
 * Creates `hallmark_test_<random>` on the server of `serverUrl` (default DATABASE_URL) and
 * applies every migration (unless `migrate: false`, for tests of an unmigrated database).
 * Call `drop()` in afterAll: it ends open connections first.
 */
export async function createTestDatabase(
  options: { serverUrl?: string; migrate?: boolean } = {},
): Promise<TestDatabase> {
  const database = await createTemporaryDatabase(
    options.serverUrl ?? databaseUrlFromEnv(),
    'hallmark_test',
  );
  if (options.migrate === false) return database;
  try {
    await applyMigrations(database.url);
  } catch (error) {
    await database.drop();
    throw error;
  }
  return database;
}
