import { ApiKeyPrefixParams } from '../admin.ts';
import { AdminActivity, AdminActivityQuery, AdminKeyUsage } from '../admin-activity.ts';
import { problemTypes } from '../problem-types.ts';
import { signedIn } from './admin-routes.ts';
import { defineRoute } from './define-route.ts';
import { problemResponses } from './problem-responses.ts';
import { cookieAuth } from './security.ts';

const tags = ['Admin'];

/** The console's charts, from the history the worker keeps in PostgreSQL. */
export function adminActivityRoutes() {
  const getActivity = defineRoute({
    method: 'get',
    path: '/admin/activity',
    operationId: 'getActivity',
    tags,
    summary: 'Work per hour, failures by code, the queue, workers, chain and IPFS',
    description:
      "Read from the worker's hourly rollup (kept for 8 days), not from a metrics system: the current hour is as fresh as the last rollup pass (every 30 s).",
    security: cookieAuth,
    request: { query: AdminActivityQuery },
    responses: {
      200: {
        description: 'The activity.',
        content: { 'application/json': { schema: AdminActivity } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: 'a range other than `24h` or `7d`.' },
        ...signedIn,
      ]),
    },
  });
  const getApiKeyUsage = defineRoute({
    method: 'get',
    path: '/admin/api-keys/{prefix}/usage',
    operationId: 'getApiKeyUsage',
    tags,
    summary: "A key's work per day over 30 days, and its quota headroom",
    security: cookieAuth,
    request: { params: ApiKeyPrefixParams },
    responses: {
      200: {
        description: 'The usage.',
        content: { 'application/json': { schema: AdminKeyUsage } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: 'a malformed prefix.' },
        { problem: problemTypes.notFound, when: 'no such key.' },
        ...signedIn,
      ]),
    },
  });
  return { getActivity, getApiKeyUsage };
}
