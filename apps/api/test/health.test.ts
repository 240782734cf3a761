import { Writable } from 'node:stream';
import type { Logger } from '@hallmark/config';
import { createTestDatabase } from '@hallmark/db/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';

describe('health and readiness', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('GET /health answers without touching dependencies', async () => {
    const res = await testApp.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /ready is 200 with every dependency up when Postgres, Redis and migrations are', async () => {
    const res = await testApp.app.inject({ method: 'GET', url: '/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      checks: { postgres: { status: 'up' }, redis: { status: 'up' }, migrations: { status: 'up' } },
    });
  });

  it('answers an unknown route with a 404 problem+json', async () => {
    const res = await testApp.app.inject({ method: 'GET', url: '/no-such-thing?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({
      type: 'https://hallmark.dev/problems/not-found',
      status: 404,
      instance: '/no-such-thing',
    });
  });

  it('answers malformed JSON with a 400 problem+json, not a 500', async () => {
    const res = await testApp.app.inject({
      method: 'POST',
      url: '/health',
      headers: { 'content-type': 'application/json' },
      payload: '{"broken":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ status: 400, type: expect.stringContaining('/problems/') });
  });
});

describe('readiness with a dependency down', () => {
  // Port 1 on loopback: nothing listens there, so connections are refused at once.
  it('is 503 and names Redis when Redis cannot be reached', async () => {
    const testApp = await startTestApp({}, { REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const res = await testApp.app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      const body = res.json();
      expect(body.status).toBe('not_ready');
      expect(body.checks.redis).toEqual({ status: 'down' });
      expect(body.checks.postgres).toEqual({ status: 'up' });
      expect(body.checks.migrations).toEqual({ status: 'up' });
    } finally {
      await testApp.close();
    }
  });

  it('is 503 and names Postgres when the database cannot be reached', async () => {
    const testApp = await startTestApp(
      {},
      { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none' },
    );
    try {
      const res = await testApp.app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      const body = res.json();
      expect(body.checks.postgres.status).toBe('down');
      expect(body.checks.migrations.status).toBe('down');
      expect(body.checks.redis).toEqual({ status: 'up' });
    } finally {
      await testApp.close();
    }
  });

  it('is 503 on a database that was never migrated, and logs which migrations are pending', async () => {
    const empty = await createTestDatabase({ migrate: false });
    const log = capturingLogger();
    const testApp = await startTestApp({}, { DATABASE_URL: empty.url }, log.logger);
    try {
      const res = await testApp.app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: 'not_ready',
        checks: {
          postgres: { status: 'up' },
          redis: { status: 'up' },
          migrations: { status: 'down' },
        },
      });
      // The anonymous answer names nothing; the operator's log does.
      expect(res.body).not.toContain('init');
      const down = log.lines().find((line) => line.msg === 'readiness: dependency is down');
      expect(down).toMatchObject({
        dependency: 'migrations',
        reason: expect.stringMatching(/^pending migrations: \d{14}_/),
      });
    } finally {
      await testApp.close();
      await empty.drop();
    }
  });

  it('names no host, port or driver error in the answer when the database is away', async () => {
    const log = capturingLogger();
    const testApp = await startTestApp(
      {},
      { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none' },
      log.logger,
    );
    try {
      const res = await testApp.app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      for (const detail of ['127.0.0.1', ':1', 'ECONNREFUSED', 'none']) {
        expect(res.body).not.toContain(detail);
      }
      expect(log.lines().some((line) => String(line.reason).includes('ECONNREFUSED'))).toBe(true);
    } finally {
      await testApp.close();
    }
  });
});

describe('readiness under load', () => {
  it('answers repeated probes from a cache of at most a second, over the pooled connections', async () => {
    const testApp = await startTestApp({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000' });
    try {
      const backends = async () => {
        const rows = await testApp.prisma.$queryRaw<Array<{ n: bigint }>>`
          SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database()`;
        return Number(rows[0]?.n);
      };
      const statements = async () => {
        const rows = await testApp.prisma.$queryRaw<Array<{ n: bigint }>>`
          SELECT coalesce(sum(xact_commit), 0) AS n FROM pg_stat_database WHERE datname = current_database()`;
        return Number(rows[0]?.n);
      };
      await testApp.app.inject({ method: 'GET', url: '/ready' });
      const backendsBefore = await backends();
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => testApp.app.inject({ method: 'GET', url: '/ready' })),
      );
      expect(answers.every((res) => res.statusCode === 200)).toBe(true);
      // No connection per probe: the pool it already had serves them.
      expect(await backends()).toBeLessThanOrEqual(backendsBefore);
      // After the cache's second, the next probe asks the dependencies again.
      const before = await statements();
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await testApp.app.inject({ method: 'GET', url: '/ready' });
      expect(await statements()).toBeGreaterThan(before);
    } finally {
      await testApp.close();
    }
  });
});

describe('anonymous traffic is limited per address', () => {
  it('limits /ready, failed authentication and signed-link routes; never /health', async () => {
    const testApp = await startTestApp({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '3' });
    try {
      const from = (remoteAddress: string, url: string, headers: Record<string, string> = {}) =>
        testApp.app.inject({ method: 'GET', url, remoteAddress, headers });
      const statuses = async (remoteAddress: string, url: string, headers = {}) => {
        const out: number[] = [];
        for (let i = 0; i < 4; i++) out.push((await from(remoteAddress, url, headers)).statusCode);
        return out;
      };
      expect(await statuses('10.0.0.1', '/ready')).toEqual([200, 200, 200, 429]);
      const limited = await from('10.0.0.1', '/ready');
      expect(limited.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(limited.json()).toMatchObject({ type: 'https://hallmark.dev/problems/rate-limited' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Another address has its own budget.
      expect((await from('10.0.0.2', '/ready')).statusCode).toBe(200);
      // Guessing keys: 401, 401, then 429 once the address's budget is spent.
      expect(
        await statuses('10.0.0.3', '/watermark/8c1f4a0e-0000-4000-8000-000000000000', {
          authorization: 'Bearer hm_abcdefgh_guessguessguessguessguessguessguessguessgue',
        }),
      ).toEqual([401, 401, 401, 429]);
      const links = await statuses('10.0.0.4', '/storage/uploads/x.jpg?expires=1&signature=x');
      expect(links.slice(0, 3).every((status) => status >= 400 && status !== 429)).toBe(true);
      expect(links[3]).toBe(429);
      // A valid key is limited by its own budget, not its address's.
      const { bearer } = await testApp.newClient();
      expect(
        await statuses('10.0.0.3', '/watermark/8c1f4a0e-0000-4000-8000-000000000000', {
          authorization: bearer,
        }),
      ).toEqual([404, 404, 404, 404]);
      // Liveness probes are never refused.
      expect(await statuses('10.0.0.1', '/health')).toEqual([200, 200, 200, 200]);
    } finally {
      await testApp.close();
    }
  });
});

/** A logger whose JSON lines the test can read. */
function capturingLogger(): { logger: Logger; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return {
    logger: pino({ level: 'info' }, stream),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
