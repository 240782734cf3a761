import { z } from 'zod';
import { PageQuery } from '../page-query.ts';
import { problemTypes } from '../problem-types.ts';
import {
  DeliveryParams,
  EndpointIdParams,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointPage,
  WebhookPayload,
} from '../webhook.ts';
import { defineRoute } from './define-route.ts';
import { authenticatedCases, problemResponses } from './problem-responses.ts';
import { bearerAuth, noAuth } from './security.ts';

const tags = ['Webhooks'];
const unknownEndpoint = {
  problem: problemTypes.notFound,
  when: 'this key has no such endpoint (or it was deleted).',
};
const malformedId = { problem: problemTypes.validationError, when: 'an id is not a UUID.' };

export function webhookRoutes() {
  const createWebhookEndpoint = defineRoute({
    method: 'post',
    path: '/webhooks',
    operationId: 'createWebhookEndpoint',
    tags,
    summary: 'Register a webhook endpoint',
    description:
      "Deliveries follow Standard Webhooks: a POST of the event's JSON with `webhook-id`, `webhook-timestamp` and `webhook-signature`. The answer carries the signing secret, this once. Failed attempts are retried on `WEBHOOK_RETRY_SCHEDULE` (about a day).",
    security: bearerAuth,
    request: {
      body: { required: true, content: { 'application/json': { schema: WebhookEndpointCreate } } },
    },
    responses: {
      201: {
        description: 'Registered; `secret` is shown this once.',
        content: { 'application/json': { schema: WebhookEndpoint } },
      },
      ...problemResponses([
        {
          problem: problemTypes.validationError,
          when: 'a malformed body, or a URL on a loopback, link-local or private address (unless the deployment allows them).',
        },
        {
          problem: problemTypes.quotaExceeded,
          when: 'the key has as many endpoints as its quota allows (`quota: webhook_endpoints`, `limit`).',
        },
        ...authenticatedCases,
      ]),
    },
  });
  const listWebhookEndpoints = defineRoute({
    method: 'get',
    path: '/webhooks',
    operationId: 'listWebhookEndpoints',
    tags,
    summary: "This key's webhook endpoints, newest first",
    security: bearerAuth,
    request: { query: PageQuery },
    responses: {
      200: {
        description: 'A page of endpoints.',
        content: { 'application/json': { schema: WebhookEndpointPage } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: 'a malformed query or cursor.' },
        ...authenticatedCases,
      ]),
    },
  });
  const deleteWebhookEndpoint = defineRoute({
    method: 'delete',
    path: '/webhooks/{endpointId}',
    operationId: 'deleteWebhookEndpoint',
    tags,
    summary: 'Delete a webhook endpoint',
    description: 'Nothing more is delivered to it, pending retries included.',
    security: bearerAuth,
    request: { params: EndpointIdParams },
    responses: {
      204: { description: 'Deleted.' },
      ...problemResponses([malformedId, unknownEndpoint, ...authenticatedCases]),
    },
  });
  const rotateWebhookSecret = defineRoute({
    method: 'post',
    path: '/webhooks/{endpointId}/rotate-secret',
    operationId: 'rotateWebhookSecret',
    tags,
    summary: "Rotate an endpoint's signing secret",
    description:
      'Answers the new secret, this once. For `WEBHOOK_SECRET_OVERLAP_HOURS` deliveries carry signatures by both secrets, so receivers can switch without losing any.',
    security: bearerAuth,
    request: { params: EndpointIdParams },
    responses: {
      200: {
        description: 'The endpoint with its new `secret`.',
        content: { 'application/json': { schema: WebhookEndpoint } },
      },
      ...problemResponses([malformedId, unknownEndpoint, ...authenticatedCases]),
    },
  });
  const listWebhookDeliveries = defineRoute({
    method: 'get',
    path: '/webhooks/{endpointId}/deliveries',
    operationId: 'listWebhookDeliveries',
    tags,
    summary: "An endpoint's deliveries, newest first, each with every attempt",
    security: bearerAuth,
    request: { params: EndpointIdParams, query: PageQuery },
    responses: {
      200: {
        description: 'A page of deliveries.',
        content: { 'application/json': { schema: WebhookDeliveryPage } },
      },
      ...problemResponses([malformedId, unknownEndpoint, ...authenticatedCases]),
    },
  });
  const redeliverWebhook = defineRoute({
    method: 'post',
    path: '/webhooks/{endpointId}/deliveries/{deliveryId}/redeliver',
    operationId: 'redeliverWebhook',
    tags,
    summary: 'Deliver an event again',
    description:
      'Queues one more attempt now (same `webhook-id`, so receivers can tell it is the same event), whatever the delivery did before.',
    security: bearerAuth,
    request: { params: DeliveryParams },
    responses: {
      202: {
        description: 'Queued.',
        content: { 'application/json': { schema: WebhookDelivery } },
      },
      ...problemResponses([
        malformedId,
        { problem: problemTypes.notFound, when: 'this key has no such endpoint or delivery.' },
        {
          problem: problemTypes.endpointDisabled,
          when: 'the endpoint is disabled (register it again once it works).',
        },
        ...authenticatedCases,
      ]),
    },
  });
  return {
    createWebhookEndpoint,
    listWebhookEndpoints,
    deleteWebhookEndpoint,
    rotateWebhookSecret,
    listWebhookDeliveries,
    redeliverWebhook,
  };
}

/** What Hallmark sends to a registered endpoint: an OpenAPI webhook, not an operation of the API. */
export const webhookEvent = defineRoute({
  method: 'post',
  path: 'event',
  operationId: 'webhookEvent',
  tags,
  summary: 'A delivery to your endpoint',
  description:
    'Answer 2xx within `WEBHOOK_TIMEOUT_MS` (10 s) to acknowledge; anything else, a redirect or no answer is retried. Deduplicate on `webhook-id`.',
  // Your endpoint authenticates Hallmark by the signature (SDK `verifyWebhook`), not a token.
  security: noAuth,
  request: {
    headers: z.object({
      'webhook-id': z.string(),
      'webhook-timestamp': z.string(),
      'webhook-signature': z.string(),
    }),
    body: { required: true, content: { 'application/json': { schema: WebhookPayload } } },
  },
  responses: { 200: { description: 'Acknowledged (any 2xx).' } },
});
