import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/create-app.ts';
import { createTestEnv } from './support/test-env.ts';

describe('API description', () => {
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

  it('serves the committed OpenAPI 3.1 document at /openapi.json', async () => {
    const committed = readFileSync(
      createRequire(import.meta.url).resolve('@hallmark/schemas/openapi.json'),
      'utf8',
    );
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual(JSON.parse(committed));
    expect(res.json().openapi).toMatch(/^3\.1\./);
  });

  it('serves a docs page at /docs', async () => {
    const res = await app.inject({ method: 'GET', url: '/docs' });
    const page =
      res.statusCode === 302
        ? await app.inject({ method: 'GET', url: res.headers.location as string })
        : res;
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('swagger');
  });
});
