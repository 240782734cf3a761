import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureDevApiKey,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  MalformedApiKeyError,
  parseApiKeyPrefix,
} from '../src/api-keys.ts';
import { createPrismaClient } from '../src/client.ts';
import type { PrismaClient } from '../src/generated/prisma/client.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing.ts';

describe('API key format', () => {
  it('generates hm_<8 base32>_<43 base64url> keys and their SHA-256', () => {
    const key = generateApiKey();
    expect(key.plaintext).toMatch(/^hm_[a-z2-7]{8}_[A-Za-z0-9_-]{43}$/);
    expect(key.plaintext.startsWith(`${key.prefix}_`)).toBe(true);
    expect(key.hash).toBe(hashApiKey(key.plaintext));
    expect(key.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(parseApiKeyPrefix(key.plaintext)).toBe(key.prefix);
    expect(generateApiKey().plaintext).not.toBe(key.plaintext);
  });

  it('rejects malformed keys without echoing them', () => {
    const valid = generateApiKey().plaintext;
    const malformed = [
      '',
      'hm_abc_def',
      valid.slice(0, -1),
      `${valid}x`,
      valid.replace('hm_', 'xx_'),
      valid.toUpperCase(),
      // Same length, but not the canonical encoding of 32 bytes.
      `${valid.slice(0, -1)}B`,
    ];
    for (const value of malformed) {
      expect(isWellFormedApiKey(value), value).toBe(false);
      expect(() => parseApiKeyPrefix(value)).toThrow(MalformedApiKeyError);
    }
    expect(() => parseApiKeyPrefix(`${valid}x`)).not.toThrow(valid);
  });
});

describe('ensureDevApiKey', () => {
  let database: TestDatabase;
  let prisma: PrismaClient;

  beforeAll(async () => {
    database = await createTestDatabase();
    prisma = createPrismaClient(database.url);
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await database?.drop();
  });

  it('stores a given key by hash only, once', async () => {
    const key = generateApiKey();
    expect(await ensureDevApiKey(prisma, { plaintext: key.plaintext, name: 'fixed' })).toEqual({
      created: true,
      prefix: key.prefix,
    });
    expect(await ensureDevApiKey(prisma, { plaintext: key.plaintext, name: 'fixed' })).toEqual({
      created: false,
      prefix: key.prefix,
    });

    const rows = await prisma.apiKey.findMany({ where: { name: 'fixed' } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ prefix: key.prefix, hash: key.hash, revokedAt: null });
    const secret = key.plaintext.slice(key.prefix.length + 1);
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it('rejects a malformed HALLMARK_DEV_API_KEY with a clear error', async () => {
    await expect(ensureDevApiKey(prisma, { plaintext: 'hm_oops' })).rejects.toThrow(
      /HALLMARK_DEV_API_KEY is not a Hallmark API key/,
    );
  });

  it('generates a development key once and then only reports its prefix', async () => {
    const first = await ensureDevApiKey(prisma);
    expect(first.created).toBe(true);
    expect(first.plaintext).toBeDefined();
    expect(parseApiKeyPrefix(first.plaintext ?? '')).toBe(first.prefix);

    const second = await ensureDevApiKey(prisma);
    expect(second).toEqual({ created: false, prefix: first.prefix });

    const stored = await prisma.apiKey.findUniqueOrThrow({ where: { prefix: first.prefix } });
    expect(stored.hash).toBe(hashApiKey(first.plaintext ?? ''));
  });

  it('replaces a revoked development key', async () => {
    await prisma.apiKey.updateMany({
      where: { name: 'development' },
      data: { revokedAt: new Date() },
    });
    const replacement = await ensureDevApiKey(prisma);
    expect(replacement.created).toBe(true);
    expect(await prisma.apiKey.count({ where: { name: 'development', revokedAt: null } })).toBe(1);
  });
});
