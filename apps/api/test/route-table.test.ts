import { randomUUID } from 'node:crypto';
import { createOperator } from '@hallmark/db';
import { type ApiRoute, ROUTES } from '@hallmark/schemas/routes';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestApp, type TestApp } from './support/test-app.ts';

const PROBLEMS = 'https://hallmark.dev/problems/';

/** Routes that are not operations of the API document: signed links, the gateway, the docs. */
const OUTSIDE_THE_DOCUMENT = new Set(['StorageController', 'GatewayController', 'DocsController']);

const cursorOf = (text: string) => Buffer.from(text).toString('base64url');

/**
 * Values a client could craft for each query parameter, none of them valid. A parameter without
 * an entry fails the walk, so that a new one is crafted for as soon as it is added.
 */
const CRAFTED: Record<string, readonly string[]> = {
  cursor: [
    'x'.repeat(201),
    'not a cursor',
    cursorOf(`2020-01-01T00:00:00.000Z|not-a-uuid`),
    cursorOf(`99999-01-01T00:00:00.000Z|${randomUUID()}`),
    cursorOf(`-000001-01-01T00:00:00.000Z|${randomUUID()}`),
    cursorOf(`2020-01-01T00:00:00.000Z|${randomUUID()}|more`),
  ],
  limit: ['0', '-1', '101', '1.5', 'abc', '1e400', '99999999999999999999'],
  from: ['-1', 'abc', '1e20', '253402300800', '1.5'],
  to: ['-1', 'abc', '1e20', '253402300800', '1.5'],
  status: ['bogus', ''],
  verdict: ['bogus', 'AUTHENTIC', ''],
  origin: ['bogus', 'API'],
  key: ['hm_', 'not a key', 'x'.repeat(500)],
  technique: ['nope'],
  token: ['short', 'x'.repeat(44), `${'a'.repeat(42)}!`],
  maxResults: ['0', '-3', 'many', '2.5'],
  returnActiveManifest: ['maybe', '1'],
  alg: [],
  value: ['not base64!', 'AAAA'],
  range: ['1h', '24H', '30d', ''],
};

/** The audit log's cursor is an entry id: digits that fit PostgreSQL's bigint. */
const AUDIT_CURSORS = ['-1', 'abc', '99999999999999999999', '9223372036854775808'];

/** The path with valid values for its parameters (`known` ones exist), so only the query is wrong. */
function validPath(route: ApiRoute, known: Record<string, string>): string {
  return route.path.replaceAll(
    /\{(\w+)\}/g,
    (_, name: string) =>
      known[name] ?? (name === 'manifestId' ? `urn:c2pa:${randomUUID()}` : randomUUID()),
  );
}

function queryKeys(route: ApiRoute): string[] {
  const query = route.request?.query;
  return query instanceof z.ZodObject ? Object.keys(query.shape) : [];
}

describe('the route table', () => {
  let t: TestApp;
  let bearer: string;
  let cookie: string;
  /** Path parameters that name something that exists: a list of it is answered, not a 404. */
  const known: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000' });
    bearer = (await t.newClient('walker')).bearer;
    await createOperator(t.prisma, 'walker@hallmark.example', 'viewer', 'a walk in the park');
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/admin/session',
      payload: { email: 'walker@hallmark.example', password: 'a walk in the park' },
    });
    expect(signIn.statusCode, signIn.body).toBe(201);
    cookie = String(signIn.headers['set-cookie']).split(';')[0] ?? '';
    const endpoint = await t.app.inject({
      method: 'POST',
      url: '/webhooks',
      headers: { authorization: bearer },
      payload: { url: 'https://hooks.example.com/walker' },
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    known.endpointId = (endpoint.json() as { id: string }).id;
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('serves every operation of the table at its method and path', () => {
    const fastify = t.app.getHttpAdapter().getInstance();
    const missing = Object.values(ROUTES).filter(
      (route) =>
        !fastify.hasRoute({
          method: route.method.toUpperCase() as 'GET',
          url: route.path.replaceAll(/\{(\w+)\}/g, ':$1'),
        }),
    );
    expect(missing.map((route) => route.operationId)).toEqual([]);
  });

  it('maps every handler of the documented API through the table, none by hand', () => {
    const byHand: string[] = [];
    for (const module of t.app.get(ModulesContainer).values()) {
      for (const controller of module.controllers.values()) {
        const type = controller.metatype as (new (...args: never[]) => object) | null;
        if (type === null || OUTSIDE_THE_DOCUMENT.has(type.name)) continue;
        const prototype = type.prototype as Record<string, unknown>;
        for (const name of Object.getOwnPropertyNames(prototype)) {
          const handler = prototype[name];
          if (typeof handler !== 'function' || name === 'constructor') continue;
          const mapped = Reflect.getMetadata(PATH_METADATA, handler) !== undefined;
          const operation = Reflect.getMetadata('hallmark:operation', handler) !== undefined;
          if (mapped && !operation) byHand.push(`${type.name}.${name}`);
        }
      }
    }
    expect(byHand).toEqual([]);
  });

  const readsWithQueries = Object.values(ROUTES).filter(
    (route) => route.method === 'get' && queryKeys(route).length > 0,
  );

  it.each(readsWithQueries.map((route) => [route.operationId, route] as const))(
    '%s answers crafted query values with 400 problem details',
    async (_, route) => {
      const auth = route.path.startsWith('/admin/') ? { cookie } : { authorization: bearer };
      const valid: Record<string, string> = {};
      if (queryKeys(route).includes('token')) valid.token = 'a'.repeat(43);
      if (queryKeys(route).includes('alg')) valid.alg = 'dev.hallmark.invisible.3';
      if (queryKeys(route).includes('value')) valid.value = 'AAAAAAAAAAA=';
      const unanswered: string[] = [];
      for (const key of queryKeys(route)) {
        const crafted =
          route.operationId === 'listAudit' && key === 'cursor' ? AUDIT_CURSORS : CRAFTED[key];
        expect(crafted, `no crafted values for the query parameter ${key}`).toBeDefined();
        for (const value of crafted ?? []) {
          const query = new URLSearchParams({ ...valid, [key]: value });
          const res = await t.app.inject({
            method: 'GET',
            url: `${validPath(route, known)}?${query}`,
            headers: auth,
          });
          const problem = res.headers['content-type']
            ?.toString()
            .startsWith('application/problem+json')
            ? (res.json() as { type?: string })
            : {};
          if (res.statusCode !== 400 || problem.type !== `${PROBLEMS}validation-error`) {
            unanswered.push(`${key}=${value}: ${res.statusCode} ${res.body.slice(0, 120)}`);
          }
        }
      }
      expect(unanswered).toEqual([]);
    },
  );
});
