// `@hallmark/db/testing`: a real, migrated, throw-away PostgreSQL database per test suite, so
// suites can run in parallel and never see each other's rows.
import { databaseUrlFromEnv } from './database-url.ts';
import { migratedTemplate } from './template-database.ts';
import { createTemporaryDatabase, type TemporaryDatabase } from './temporary-database.ts';

export type TestDatabase = TemporaryDatabase;

/**
 * Creates `hallmark_test_<random>` on the server of `serverUrl` (default DATABASE_URL) with every
 * migration applied: a copy of the server's migrated template (made on first use, see
 * template-database.ts), or empty with `migrate: false` (for tests of an unmigrated database).
 * Call `drop()` in afterAll: it ends open connections first.
 */
export async function createTestDatabase(
  options: { serverUrl?: string; migrate?: boolean } = {},
): Promise<TestDatabase> {
  const serverUrl = options.serverUrl ?? databaseUrlFromEnv();
  const template = options.migrate === false ? undefined : await migratedTemplate(serverUrl);
  return createTemporaryDatabase(serverUrl, 'hallmark_test', template);
}
