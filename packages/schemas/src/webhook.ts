import { z } from 'zod';
import { HttpUrl } from './common/http-url.ts';
import { UnixSeconds } from './common/unix-seconds.ts';

/** What a key can be told about, as it happens. */
export const WebhookEventType = z.enum([
  'watermark.succeeded',
  'watermark.failed',
  'verification.completed',
  'nft.minted',
  'batch.completed',
]);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

export const WebhookEndpointCreate = z
  .strictObject({
    url: HttpUrl.max(2000).meta({
      description:
        'Where deliveries are POSTed. Loopback, link-local and private addresses are refused unless the deployment allows them.',
    }),
    events: z.array(WebhookEventType).max(20).optional().meta({
      description: 'The event types to deliver here; absent or empty: every type.',
    }),
  })
  .meta({ id: 'WebhookEndpointCreate' });
export type WebhookEndpointCreate = z.infer<typeof WebhookEndpointCreate>;

export const WebhookEndpoint = z
  .strictObject({
    id: z.uuid(),
    url: z.string(),
    events: z.array(WebhookEventType).meta({ description: 'Empty: every type.' }),
    createdAt: UnixSeconds,
    disabledAt: UnixSeconds.nullable().meta({
      description:
        'Set when every attempt failed for `WEBHOOK_DISABLE_AFTER_HOURS`: nothing is delivered any more. Register the endpoint again once it works.',
    }),
    disabledReason: z.string().nullable(),
    previousSecretExpiresAt: UnixSeconds.nullable().meta({
      description:
        'After a rotation: until then deliveries carry a signature by the old secret too.',
    }),
    secret: z.string().optional().meta({
      description:
        'The signing secret (`whsec_...`): in the answer that made or rotated it only. Verify deliveries with it (SDK `verifyWebhook`).',
    }),
  })
  .meta({ id: 'WebhookEndpoint', description: 'An endpoint of this key.' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointPage = z
  .strictObject({ items: z.array(WebhookEndpoint), nextCursor: z.string().nullable() })
  .meta({ id: 'WebhookEndpointPage' });

export const WebhookAttempt = z
  .strictObject({
    attempt: z.int(),
    at: UnixSeconds,
    statusCode: z.int().nullable().meta({ description: 'Null: no answer (see `error`).' }),
    latencyMs: z.int(),
    responseExcerpt: z.string().nullable().meta({ description: 'The first 500 characters.' }),
    error: z.string().nullable(),
  })
  .meta({ id: 'WebhookAttempt' });

export const WebhookDeliveryState = z.enum(['pending', 'succeeded', 'failed']);

export const WebhookDelivery = z
  .strictObject({
    id: z.uuid(),
    eventId: z.string().meta({ description: 'The `webhook-id` of every attempt.' }),
    eventType: WebhookEventType,
    status: WebhookDeliveryState,
    attempts: z.int(),
    nextAttemptAt: UnixSeconds.nullable(),
    createdAt: UnixSeconds,
    log: z.array(WebhookAttempt).meta({ description: 'Every attempt, oldest first.' }),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryPage = z
  .strictObject({ items: z.array(WebhookDelivery), nextCursor: z.string().nullable() })
  .meta({ id: 'WebhookDeliveryPage' });

export const EndpointIdParams = z.strictObject({ endpointId: z.uuid() });
export const DeliveryParams = z.strictObject({ endpointId: z.uuid(), deliveryId: z.uuid() });

const jobError = z.strictObject({ code: z.string(), message: z.string() });

/** The body of every delivery: `{ type, timestamp, data }`, as Standard Webhooks recommends. */
export const WebhookPayload = z
  .discriminatedUnion('type', [
    z.strictObject({
      type: z.enum(['watermark.succeeded', 'watermark.failed']),
      timestamp: z.iso.datetime(),
      data: z.strictObject({
        requestId: z.uuid(),
        status: z.enum(['success', 'failed']),
        fileId: z.uuid(),
        error: jobError.optional(),
      }),
    }),
    z.strictObject({
      type: z.literal('verification.completed'),
      timestamp: z.iso.datetime(),
      data: z.strictObject({
        verificationId: z.uuid(),
        status: z.enum(['success', 'failed']),
        verdict: z.string().optional(),
        error: jobError.optional(),
      }),
    }),
    z.strictObject({
      type: z.literal('nft.minted'),
      timestamp: z.iso.datetime(),
      data: z.strictObject({
        requestId: z.uuid(),
        tokenId: z.string(),
        contract: z.string(),
        chainId: z.int(),
        owner: z.string(),
        transactionHash: z.string().nullable(),
      }),
    }),
    z.strictObject({
      type: z.literal('batch.completed'),
      timestamp: z.iso.datetime(),
      data: z.strictObject({
        batchId: z.uuid(),
        counts: z.strictObject({ success: z.int(), failed: z.int() }),
      }),
    }),
  ])
  .meta({
    id: 'WebhookPayload',
    description:
      'A delivery body. Headers: `webhook-id` (the event, the same on every attempt), `webhook-timestamp`, `webhook-signature`.',
  });
export type WebhookPayload = z.infer<typeof WebhookPayload>;
