import {
  KeyRequestAccepted,
  KeyRequestCreate,
  KeyRequestKey,
  KeyRequestStatus,
  KeyRequestTokenQuery,
} from '../key-request.ts';
import { RequestIdParams } from '../path-params.ts';
import { problemTypes } from '../problem-types.ts';
import { defineRoute } from './define-route.ts';
import { problemResponses } from './problem-responses.ts';
import { noAuth } from './security.ts';

export function keyRequestRoutes() {
  const createKeyRequest = defineRoute({
    method: 'post',
    path: '/key-requests',
    operationId: 'createKeyRequest',
    tags: ['Key requests'],
    summary: 'Ask for an API key',
    description:
      'No token needed. The answer holds a private status link (keep it: it is not sent again, except by mail to the contact); the operators answer within two business days. Limited per address (`KEY_REQUESTS_PER_HOUR`).',
    security: noAuth,
    request: {
      body: { required: true, content: { 'application/json': { schema: KeyRequestCreate } } },
    },
    responses: {
      202: {
        description: 'The request was received.',
        content: { 'application/json': { schema: KeyRequestAccepted } },
      },
      ...problemResponses([
        {
          problem: problemTypes.validationError,
          when: 'a field is missing or malformed; `errors` lists each.',
        },
        {
          problem: problemTypes.rateLimited,
          when: 'too many requests for keys from this address this hour.',
        },
        {
          problem: problemTypes.serviceUnavailable,
          when: 'the rate limiter (Redis) is away (`RATE_LIMIT_FAIL_CLOSED`); see `Retry-After`.',
        },
      ]),
    },
  });
  const getKeyRequest = defineRoute({
    method: 'get',
    path: '/key-requests/{requestId}',
    operationId: 'getKeyRequest',
    tags: ['Key requests'],
    summary: 'Follow a request for an API key (its status link)',
    description:
      'The link from `POST /key-requests` (the mails to the contact carry it too). Reading it never shows or uses up the key (a mail scanner may follow it): once approved, the key exists and `keyReady` says it waits for `POST /key-requests/{requestId}/key`; `apiKeyPrefix` names it.',
    security: noAuth,
    request: {
      params: RequestIdParams,
      query: KeyRequestTokenQuery,
    },
    responses: {
      200: {
        description: 'The request.',
        content: { 'application/json': { schema: KeyRequestStatus } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: 'the id or the token is malformed.' },
        { problem: problemTypes.notFound, when: 'no request has this id and token.' },
        {
          problem: problemTypes.rateLimited,
          when: 'too many requests without a valid API key from this address.',
        },
      ]),
    },
  });
  const collectKeyRequestKey = defineRoute({
    method: 'post',
    path: '/key-requests/{requestId}/key',
    operationId: 'collectKeyRequestKey',
    tags: ['Key requests'],
    summary: 'Collect the API key of an approved request (once)',
    description:
      'With the token of the status link. Answers with the key made on approval, and the API address to use it with: the only time it is shown (its sealed copy is erased; a second call is refused). A person does this by pressing the button on the status page.',
    security: noAuth,
    request: {
      params: RequestIdParams,
      query: KeyRequestTokenQuery,
    },
    responses: {
      201: {
        description: 'The key, shown this once.',
        content: { 'application/json': { schema: KeyRequestKey } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: 'the id or the token is malformed.' },
        { problem: problemTypes.notFound, when: 'no request has this id and token.' },
        {
          problem: problemTypes.keyNotAvailable,
          when: 'the request is not approved, its key was collected already, or its sealed copy can no longer be read (the service secret changed: an operator re-issues it).',
        },
        {
          problem: problemTypes.rateLimited,
          when: 'too many requests without a valid API key from this address.',
        },
      ]),
    },
  });
  return { createKeyRequest, getKeyRequest, collectKeyRequestKey };
}
