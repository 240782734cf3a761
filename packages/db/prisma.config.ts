// Read by the Prisma CLI (`prisma generate`, and `prisma migrate deploy` where the native engine
// can be downloaded). Hallmark's own migration runner (src/migrations.ts) uses the same paths.
import { defineConfig } from 'prisma/config';
import { databaseUrlFromEnv } from './src/database-url.ts';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: databaseUrlFromEnv() },
});
