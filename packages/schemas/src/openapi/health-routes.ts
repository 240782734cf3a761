import { Health, Readiness } from '../health.ts';
import { defineRoute } from './define-route.ts';
import { anonymousRateLimitResponse, httpLayerResponses } from './problem-responses.ts';
import { noAuth } from './security.ts';

export function healthRoutes() {
  const getHealth = defineRoute({
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    tags: ['Health'],
    summary: 'Liveness probe',
    description: 'Answers 200 while the process runs; checks no dependency. No token needed.',
    security: noAuth,
    responses: {
      200: {
        description: 'The process is alive.',
        content: { 'application/json': { schema: Health } },
      },
      ...httpLayerResponses,
    },
  });

  const getReadiness = defineRoute({
    method: 'get',
    path: '/ready',
    operationId: 'getReadiness',
    tags: ['Health'],
    summary: 'Readiness probe',
    description:
      'Checks PostgreSQL, Redis and pending migrations, answering from a cache of at most one second. The same body is sent with 200 (ready) and 503 (not ready); it says only up or down per check (the reasons are in the API log). No token needed; limited per address.',
    security: noAuth,
    responses: {
      200: {
        description: 'Every check is up.',
        content: { 'application/json': { schema: Readiness } },
      },
      503: {
        description: 'At least one check is down; `checks` says which.',
        content: { 'application/json': { schema: Readiness } },
      },
      ...anonymousRateLimitResponse,
      ...httpLayerResponses,
    },
  });
  return { getHealth, getReadiness };
}
