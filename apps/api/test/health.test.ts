import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/create-app.ts';
import { createTestEnv } from './support/test-env.ts';

describe('health and readiness', () => {
  let testEnv: Awaited<ReturnType<typeof createTestEnv>>;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    testEnv = await createTestEnv();
    app = await createApp(testEnv.config, testEnv.logger);
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(async () => {
    await app?.close();
    await testEnv?.dispose();
  });

  it('GET /health answers without touching dependencies', async () => {
    const res = await app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /ready is 200 with every dependency up when Postgres, Redis and migrations are', async () => {
    const res = await app.inject({ method: 'GET', url: '/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      checks: { postgres: { status: 'up' }, redis: { status: 'up' }, migrations: { status: 'up' } },
    });
  });

  it('answers an unknown route with a 404 problem+json', async () => {
    const res = await app.inject({ method: 'GET', url: '/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ status: 404, type: expect.stringMatching(/not-found$/) });
  });
});

describe('readiness with a dependency down', () => {
  it('is 503 and names Redis when Redis cannot be reached', async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const testEnv = await createTestEnv({ REDIS_URL: 'redis://127.0.0.1:1' });
    const app = await createApp(testEnv.config, testEnv.logger);
    try {
      await app.init();
      const res = await app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      const body = res.json();
      expect(body.status).toBe('not_ready');
      expect(body.checks.redis.status).toBe('down');
      expect(body.checks.redis.error).toEqual(expect.any(String));
      expect(body.checks.postgres).toEqual({ status: 'up' });
    } finally {
      await app.close();
      await testEnv.dispose();
    }
  });

  it('is 503 and names Postgres when the database cannot be reached', async () => {
    const testEnv = await createTestEnv();
    const config = { ...testEnv.config, DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none' };
    const app = await createApp(config, testEnv.logger);
    try {
      await app.init();
      const res = await app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      const body = res.json();
      expect(body.checks.postgres.status).toBe('down');
      expect(body.checks.migrations.status).toBe('down');
      expect(body.checks.redis).toEqual({ status: 'up' });
    } finally {
      await app.close();
      await testEnv.dispose();
    }
  });
});
