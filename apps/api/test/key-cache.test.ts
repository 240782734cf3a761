import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';

// The authenticator caches keys (API_KEY_CACHE_SECONDS, here 3 s): PostgreSQL's notification of a
// key change empties the cache at once; without it, the entry still lapses within the TTL.
describe('API key cache', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ API_KEY_CACHE_SECONDS: '3' });
  });

  afterAll(async () => {
    await t?.close();
  });

  const poll = (bearer: string) =>
    t.app.inject({
      method: 'GET',
      url: '/watermark/00000000-0000-4000-8000-000000000000',
      headers: { authorization: bearer },
    });
  const status = async (bearer: string) => (await poll(bearer)).statusCode;

  /** Milliseconds until a request with `bearer` answers 401 (polling every 10 ms, up to 5 s). */
  async function msUntilRefused(bearer: string): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < 5_000) {
      if ((await status(bearer)) === 401) return Date.now() - started;
      await sleep(10);
    }
    return Number.POSITIVE_INFINITY;
  }

  it('a revocation by SQL, outside the API, is heard at once', async () => {
    const alice = await t.newClient('alice');
    expect(await status(alice.bearer)).toBe(404);
    await t.prisma
      .$executeRaw`UPDATE api_keys SET revoked_at = now() WHERE id = ${alice.apiKeyId}::uuid`;
    // Well before the 3 s the entry would otherwise live.
    expect(await msUntilRefused(alice.bearer)).toBeLessThan(1_000);
  });

  it('a cached key needs no query; unheard, a revocation still lapses within the TTL', async () => {
    const bob = await t.newClient('bob');
    expect(await status(bob.bearer)).toBe(404);
    await t.prisma.$executeRawUnsafe('ALTER TABLE api_keys DISABLE TRIGGER api_keys_changed');
    try {
      await t.prisma
        .$executeRaw`UPDATE api_keys SET revoked_at = now() WHERE id = ${bob.apiKeyId}::uuid`;
      // Still served from the cache: the database says revoked, nobody told the API.
      expect(await status(bob.bearer)).toBe(404);
      const ms = await msUntilRefused(bob.bearer);
      expect(ms).toBeGreaterThan(0);
      expect(ms).toBeLessThanOrEqual(3_500);
    } finally {
      await t.prisma.$executeRawUnsafe('ALTER TABLE api_keys ENABLE TRIGGER api_keys_changed');
    }
  });

  it("a key's new rate limit applies to its next request", async () => {
    const carol = await t.newClient('carol');
    const limit = async () => (await poll(carol.bearer)).headers['ratelimit-limit'];
    expect(await limit()).toBe(String(t.config.RATE_LIMIT_PER_MINUTE));
    await t.prisma.apiKey.update({
      where: { id: carol.apiKeyId },
      data: { rateLimitPerMinute: 7 },
    });
    await sleep(100);
    expect(await limit()).toBe('7');
  });
});
