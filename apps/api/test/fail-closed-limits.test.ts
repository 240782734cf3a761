import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrivateRedis, startPrivateRedis } from './support/private-redis.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const PROBLEMS = 'https://hallmark.dev/problems/';

// RATE_LIMIT_FAIL_CLOSED: while Redis is away, sign-ins and key requests (the forms an attacker
// would flood exactly then) are refused; the rest of the API is not limited rather than down.
describe('limits while Redis is away', () => {
  let redis: PrivateRedis;
  let t: TestApp;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    t = await startTestApp({ REDIS_URL: redis.url });
  });

  afterAll(async () => {
    // Back first: the app closes its queues through Redis.
    await redis?.start();
    await t?.close();
    await redis?.stop();
  });

  it('sign-ins and key requests answer 503 with Retry-After; anonymous reads still work', async () => {
    const signIn = () =>
      t.app.inject({
        method: 'POST',
        url: '/admin/session',
        payload: { email: 'ops@hallmark.example', password: 'a guess' },
      });
    const keyRequest = () =>
      t.app.inject({
        method: 'POST',
        url: '/key-requests',
        payload: {
          companyName: 'Acme Photo',
          purpose: 'Pictures.',
          contactName: 'Ada',
          contactEmail: 'ada@acme.example',
        },
      });
    expect((await signIn()).statusCode).toBe(401);
    expect((await keyRequest()).statusCode).toBe(202);

    await redis.stop();
    for (const res of [await signIn(), await keyRequest()]) {
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toMatchObject({ type: `${PROBLEMS}service-unavailable` });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect((await t.app.inject({ method: 'GET', url: '/openapi.json' })).statusCode).toBe(200);
  });
});
