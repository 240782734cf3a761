import { AccessToken } from '../access-token.ts';
import { defineRoute } from './define-route.ts';
import { authenticatedCases, problemResponses } from './problem-responses.ts';
import { bearerAuth } from './security.ts';

export function authRoutes() {
  const createAccessToken = defineRoute({
    method: 'post',
    path: '/auth/token',
    operationId: 'createAccessToken',
    tags: ['Auth'],
    summary: 'Exchange an API key for a short-lived access token',
    description:
      'Send the API key as bearer. The token can be used instead of the key on every endpoint, so the key itself need not travel with each request; it stops working at `expiresAt` or when the key is revoked. A token cannot mint further tokens.',
    security: bearerAuth,
    responses: {
      201: {
        description: 'A new access token.',
        content: { 'application/json': { schema: AccessToken } },
      },
      ...problemResponses(authenticatedCases),
    },
  });
  return { createAccessToken };
}
