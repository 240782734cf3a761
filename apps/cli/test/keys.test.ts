import { hashApiKey } from '@hallmark/db';
import { createTestDatabase, type TestDatabase } from '@hallmark/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/run-cli.ts';
import { capture } from './support/capture.ts';

describe('hallmark keys', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('creates a key shown once, lists it, and revokes it', async () => {
    const env = { DATABASE_URL: database.url };
    const created = capture(env);
    expect(await runCli(['keys', 'create', '--name', 'newsroom'], created.io)).toBe(0);
    const plaintext = created.out().trim();
    expect(plaintext).toMatch(/^hm_[a-z2-7]{8}_[A-Za-z0-9_-]{43}$/);
    const prefix = plaintext.slice(0, 11);

    const listed = capture(env);
    expect(await runCli(['keys', 'list', '--json'], listed.io)).toBe(0);
    const rows = JSON.parse(listed.out()) as Array<Record<string, unknown>>;
    expect(rows).toEqual([expect.objectContaining({ prefix, name: 'newsroom', revokedAt: null })]);
    // Only the prefix is ever shown again; the key itself is nowhere in the listing.
    expect(listed.out()).not.toContain(plaintext);
    expect(listed.out()).not.toContain(hashApiKey(plaintext));
    // Which database was read, on stderr so that stdout stays the listing.
    const name = new URL(database.url).pathname.slice(1);
    expect(listed.err()).toBe(`database ${name} on 127.0.0.1:5432\n`);

    const revoked = capture(env);
    expect(await runCli(['keys', 'revoke', prefix], revoked.io)).toBe(0);
    const again = capture(env);
    expect(await runCli(['keys', 'revoke', prefix], again.io)).toBe(1);
    expect(again.err()).toContain(`No active key ${prefix}`);
  });

  it('refuses bad usage with exit code 2', async () => {
    const c = capture({ DATABASE_URL: database.url });
    expect(await runCli(['keys', 'create'], c.io)).toBe(2);
    expect(c.err()).toContain('--name is required');
  });
});
