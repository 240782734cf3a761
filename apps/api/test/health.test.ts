import { createTestDatabase } from '@hallmark/db/testing';
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
      expect(body.checks.redis).toEqual({ status: 'down', error: expect.any(String) });
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

  it('is 503 and lists pending migrations on a database that was never migrated', async () => {
    const empty = await createTestDatabase({ migrate: false });
    const testApp = await startTestApp({}, { DATABASE_URL: empty.url });
    try {
      const res = await testApp.app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      const body = res.json();
      expect(body.checks.postgres).toEqual({ status: 'up' });
      expect(body.checks.migrations.status).toBe('down');
      expect(body.checks.migrations.pending.length).toBeGreaterThan(0);
    } finally {
      await testApp.close();
      await empty.drop();
    }
  });
});
