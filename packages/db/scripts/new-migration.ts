// `pnpm db:migration <name>`: writes a migration for the changes in prisma/schema.prisma.
// Needs a PostgreSQL server (DATABASE_URL's) for a temporary shadow database; the database that
// URL names is not touched.
import { relative } from 'node:path';
import { createMigration } from '../src/create-migration.ts';
import { DatabaseUnreachableError } from '../src/migrations.ts';

const name = process.argv[2];
if (!name) {
  console.error('Usage: pnpm db:migration <name>   (e.g. pnpm db:migration add_webhooks)');
  process.exit(2);
}

try {
  const migration = await createMigration(name);
  if (migration === null) {
    console.log('schema.prisma matches the migrations: nothing to write.');
  } else {
    console.log(`Wrote ${relative(process.cwd(), migration.directory)}/migration.sql`);
    console.log('Review it, then apply it with `pnpm db:migrate`.');
  }
} catch (error) {
  if (!(error instanceof DatabaseUnreachableError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
