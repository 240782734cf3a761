import { waitFor } from '@hallmark/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';
import { listeningForChanges, withChangesUnheard } from './support/unheard-changes.ts';

// The authenticator caches keys (API_KEY_CACHE_SECONDS): PostgreSQL's notification of a key change
// empties the cache at once; without it, the entry still lapses after the TTL. The app here keeps
// keys for 300 s, far longer than any test runs: a change seen at all was heard, not a lapse.
describe('API key cache', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ API_KEY_CACHE_SECONDS: '300' });
  });

  afterAll(async () => {
    await t?.close();
  });

  const poll = (app: TestApp, bearer: string) =>
    app.app.inject({
      method: 'GET',
      url: '/watermark/00000000-0000-4000-8000-000000000000',
      headers: { authorization: bearer },
    });
  const status = async (app: TestApp, bearer: string) => (await poll(app, bearer)).statusCode;

  it('a revocation by SQL, outside the API, is heard at once', async () => {
    const alice = await t.newClient('alice');
    expect(await status(t, alice.bearer)).toBe(404);
    await t.prisma
      .$executeRaw`UPDATE api_keys SET revoked_at = now() WHERE id = ${alice.apiKeyId}::uuid`;
    // Refused long before the 300 s the entry would otherwise live.
    await waitFor(async () => (await status(t, alice.bearer)) === 401, "alice's key refused");
  });

  it('a cached key needs no query; unheard, a revocation still lapses after the TTL', async () => {
    // An app of its own with a short TTL, so the lapse comes within the test.
    const ttlMs = 3_000;
    const short = await startTestApp({ API_KEY_CACHE_SECONDS: String(ttlMs / 1000) });
    try {
      const bob = await short.newClient('bob');
      await listeningForChanges(short);
      // Taken before the read that caches the key: its entry lives at least until before + TTL,
      // however slowly anything below runs.
      const before = Date.now();
      expect(await status(short, bob.bearer)).toBe(404);
      await withChangesUnheard(short, { table: 'api_keys', name: 'api_keys_changed' }, async () => {
        await short.prisma
          .$executeRaw`UPDATE api_keys SET revoked_at = now() WHERE id = ${bob.apiKeyId}::uuid`;
        // The database says revoked and nobody told the API: until the entry lapses, every
        // request is answered from the cache.
        await waitFor(async () => (await status(short, bob.bearer)) === 401, "bob's key refused");
        expect(Date.now()).toBeGreaterThanOrEqual(before + ttlMs);
      });
    } finally {
      await short.close();
    }
  });

  it("a key's new rate limit applies to its next request", async () => {
    const carol = await t.newClient('carol');
    const limit = async () => (await poll(t, carol.bearer)).headers['ratelimit-limit'];
    expect(await limit()).toBe(String(t.config.RATE_LIMIT_PER_MINUTE));
    await t.prisma.apiKey.update({
      where: { id: carol.apiKeyId },
      data: { rateLimitPerMinute: 7 },
    });
    // The notification empties the cache; the request after it reads the new limit.
    await waitFor(async () => (await limit()) === '7', "carol's new rate limit");
  });
});
