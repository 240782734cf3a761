import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { dropDatabase, ensureDatabase, withPgClient } from '../src/database-admin.ts';
import { DatabaseUnreachableError } from '../src/database-unreachable-error.ts';
import { databaseUrlFromEnv, withDatabaseName } from '../src/database-url.ts';
import { applyMigrations } from '../src/migrations.ts';

const serverUrl = databaseUrlFromEnv();
// Random, not the pid: another suite on the same server may have a process with the same pid.
const name = `hallmark_test_ensure_${randomBytes(6).toString('hex')}`;
const url = withDatabaseName(serverUrl, name);

afterAll(async () => {
  await dropDatabase(serverUrl, name);
});

describe('ensureDatabase', () => {
  it('creates a missing database once', async () => {
    expect(await ensureDatabase(url)).toEqual({ created: true });
    expect(await ensureDatabase(url)).toEqual({ created: false });
    const current = await withPgClient(url, async (client) => {
      const result = await client.query<{ name: string }>('SELECT current_database() AS name');
      return result.rows[0]?.name;
    });
    expect(current).toBe(name);
  });

  it('reports a server that does not answer as DatabaseUnreachableError with host:port', async () => {
    const unreachable = 'postgresql://postgres@127.0.0.1:1/hallmark';
    const error = await ensureDatabase(unreachable).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DatabaseUnreachableError);
    expect(error).toMatchObject({ address: '127.0.0.1:1' });
    await expect(applyMigrations(unreachable)).rejects.toBeInstanceOf(DatabaseUnreachableError);
  });
});
