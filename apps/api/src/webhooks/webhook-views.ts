import type { WebhookAttempt, WebhookDelivery, WebhookEvent } from '@hallmark/db';
import type {
  WebhookDelivery as DeliveryView,
  WebhookEndpoint as EndpointView,
  WebhookEventType,
} from '@hallmark/schemas';
import { unixSeconds } from '../time/unix-seconds.ts';

type EndpointRow = {
  id: string;
  url: string;
  eventTypes: string[];
  createdAt: Date;
  disabledAt: Date | null;
  disabledReason: string | null;
  previousSecretExpiresAt: Date | null;
};

const orNull = (at: Date | null) => (at === null ? null : unixSeconds(at));

export function endpointView(row: EndpointRow, secret?: string): EndpointView {
  const overlapping =
    row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt > new Date();
  return {
    id: row.id,
    url: row.url,
    events: row.eventTypes as WebhookEventType[],
    createdAt: unixSeconds(row.createdAt),
    disabledAt: orNull(row.disabledAt),
    disabledReason: row.disabledReason,
    previousSecretExpiresAt: overlapping ? orNull(row.previousSecretExpiresAt) : null,
    ...(secret === undefined ? {} : { secret }),
  };
}

export function deliveryView(
  row: WebhookDelivery & { event: WebhookEvent; log: WebhookAttempt[] },
): DeliveryView {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.event.type as WebhookEventType,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? orNull(row.nextAttemptAt) : null,
    createdAt: unixSeconds(row.createdAt),
    log: row.log.map((attempt) => ({
      attempt: attempt.attempt,
      at: unixSeconds(attempt.startedAt),
      statusCode: attempt.statusCode,
      latencyMs: attempt.latencyMs,
      responseExcerpt: attempt.responseExcerpt,
      error: attempt.error,
    })),
  };
}
