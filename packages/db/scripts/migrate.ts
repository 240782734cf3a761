// `pnpm db:migrate`: creates the database if needed and applies pending migrations.
// Imports src/ directly (Node strips the types), so it works before `pnpm build`.
import { databaseUrlFromEnv, redactPassword } from '../src/database-url.ts';
import { applyMigrations, DatabaseUnreachableError, ensureDatabase } from '../src/migrations.ts';

const databaseUrl = databaseUrlFromEnv();

try {
  const { created } = await ensureDatabase(databaseUrl);
  if (created) console.log(`Created database ${redactPassword(databaseUrl)}`);
  const applied = await applyMigrations(databaseUrl);
  if (applied.length === 0) {
    console.log('Database already up to date.');
  } else {
    for (const name of applied) console.log(`Applied ${name}`);
  }
} catch (error) {
  if (!(error instanceof DatabaseUnreachableError)) throw error;
  console.error(`${error.message} (DATABASE_URL=${redactPassword(databaseUrl)})`);
  process.exitCode = 1;
}
