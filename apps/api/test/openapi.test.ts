import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';

describe('API description', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('serves the committed OpenAPI 3.1 document at /openapi.json', async () => {
    const committed = readFileSync(
      createRequire(import.meta.url).resolve('@hallmark/schemas/openapi.json'),
      'utf8',
    );
    const res = await testApp.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual(JSON.parse(committed));
    expect(res.json().openapi).toMatch(/^3\.1\./);
  });

  it('serves a docs page at /docs', async () => {
    const first = await testApp.app.inject({ method: 'GET', url: '/docs' });
    const page =
      first.statusCode === 302
        ? await testApp.app.inject({ method: 'GET', url: String(first.headers.location) })
        : first;
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('swagger');
  });
});
