import { createOperator } from '@hallmark/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenForAdmin } from '../src/admin-listener.ts';
import { freePort } from './support/free-port.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

describe('ADMIN_API_PORT: the admin API on a listener of its own', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    const port = await freePort();
    t = await startTestApp({ ADMIN_API_PORT: String(port) });
    expect(await listenForAdmin(t.app, t.config)).toBe(true);
    admin = `http://127.0.0.1:${port}`;
    await createOperator(t.prisma, 'ops@hallmark.example', 'admin', 'correct horse battery');
  });

  afterAll(async () => {
    await t?.close();
  });

  const credentials = { email: 'ops@hallmark.example', password: 'correct horse battery' };

  it('the public listener answers /admin as a route it does not have; its other routes work', async () => {
    for (const [method, url] of [
      ['POST', '/admin/session'],
      ['GET', '/admin/audit'],
      ['GET', '/admin'],
    ] as const) {
      const res = await t.app.inject({ method, url, payload: credentials });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    // Nothing was tried: no sign-in reached the operators.
    expect(await t.prisma.auditEntry.count()).toBe(0);
  });

  it('the admin listener signs operators in and serves the routes the console calls', async () => {
    const signIn = await fetch(`${admin}/admin/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(credentials),
    });
    expect(signIn.status).toBe(201);
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const audit = await fetch(`${admin}/admin/audit`, { headers: { cookie } });
    expect(audit.status).toBe(200);
    expect(((await audit.json()) as { items: { action: string }[] }).items[0]?.action).toBe(
      'operator.sign_in',
    );
    expect((await fetch(`${admin}/health`)).status).toBe(200);
  });
});
