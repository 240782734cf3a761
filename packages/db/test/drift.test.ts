import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMigration } from '../src/create-migration.ts';
import { diffSchemaAgainstMigrations } from '../src/migrations.ts';
import { MIGRATIONS_DIR, SCHEMA_PATH } from '../src/migrations-folder.ts';

const temporaryDirs: string[] = [];

async function copyOfMigrations(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hallmark-migrations-'));
  temporaryDirs.push(dir);
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}

async function schemaWithWebhooks(): Promise<string> {
  const schema = await readFile(SCHEMA_PATH, 'utf8');
  return `${schema}
model Webhook {
  id  String @id @default(uuid()) @db.Uuid
  url String

  @@map("webhooks")
}
`;
}

afterEach(async () => {
  await Promise.all(temporaryDirs.splice(0).map((dir) => rm(dir, { recursive: true })));
});

describe('schema drift', () => {
  it('schema.prisma is exactly what the committed migrations produce', async () => {
    const drift = await diffSchemaAgainstMigrations();
    expect(drift, 'schema.prisma changed without a migration: run `pnpm db:migration <name>`').toBe(
      '',
    );
  });

  it('detects a schema change that has no migration', async () => {
    const sql = await diffSchemaAgainstMigrations({
      migrationsDir: await copyOfMigrations(),
      schema: await schemaWithWebhooks(),
    });
    expect(sql).toContain('CREATE TABLE "webhooks"');
  });

  it('writes a migration that removes the drift, and nothing when there is none', async () => {
    const migrationsDir = await copyOfMigrations();
    const schema = await schemaWithWebhooks();
    const now = new Date('2030-01-02T03:04:05Z');

    const created = await createMigration('Add webhooks', { migrationsDir, schema, now });
    expect(created?.name).toBe('20300102030405_add_webhooks');
    expect(await readFile(join(migrationsDir, created?.name ?? '', 'migration.sql'), 'utf8')).toBe(
      created?.sql,
    );

    const before = await readdir(migrationsDir);
    expect(await createMigration('again', { migrationsDir, schema, now })).toBeNull();
    expect(await readdir(migrationsDir)).toEqual(before);
  });
});
