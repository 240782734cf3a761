import { type HallmarkConfig, type Logger, openSecret } from '@hallmark/config';
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  completeBatches,
  type DisabledEndpoint,
  fanOutEvents,
  recordAttempt,
} from '@hallmark/db';
import {
  CONFIG,
  LOGGER,
  MAILER,
  type Mailer,
  PrismaService,
  SERVICE_KEYS,
  type ServiceKeys,
  signWebhook,
} from '@hallmark/runtime';
import { webhookDeliveries, webhookLatency } from '@hallmark/runtime/metrics';
import { activeTraceContext, inTraceOf, SpanKind, traced } from '@hallmark/runtime/tracing';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { PeriodicTask } from '../periodic-task.ts';
import { failure, type SendResult, sendWebhook } from './webhook-sender.ts';

/** Past the attempt's own time limit, a claim lapses and another worker may try. */
const CLAIM_SLACK_MS = 30_000;
/** The logged reason of an attempt whose signing secret could not be opened. */
const SECRET_UNREADABLE =
  "the endpoint's signing secret cannot be opened with this deployment's HALLMARK_SECRET: nothing was sent";

/**
 * Delivers webhook events on every worker, beside (never inside) the job queues: each tick turns
 * new events into deliveries and starts due attempts up to WEBHOOK_CONCURRENCY at once, without
 * waiting for them, so a slow endpoint holds one slot for at most WEBHOOK_TIMEOUT_MS.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly #task: PeriodicTask;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #schedule: readonly number[];

  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(SERVICE_KEYS) private readonly keys: ServiceKeys,
    @Inject(MAILER) private readonly mailer: Mailer,
    private readonly prisma: PrismaService,
  ) {
    this.#schedule = config.WEBHOOK_RETRY_SCHEDULE.split(',').map((s) => Number(s.trim()));
    this.#task = new PeriodicTask(
      config.WEBHOOK_POLL_MS,
      () => this.tick(),
      (error) => this.logger.error({ err: error }, 'webhook dispatch failed; retrying'),
    );
  }

  onApplicationBootstrap(): void {
    this.#task.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.#task.stop();
    await Promise.all(this.#inFlight);
  }

  /**
   * One tick: complete the batches whose last job ended (their event is one more to tell), fan
   * out new events, then start due attempts in the free slots.
   */
  async tick(): Promise<void> {
    await completeBatches(this.prisma.sql);
    await fanOutEvents(this.prisma.sql);
    const free = this.config.WEBHOOK_CONCURRENCY - this.#inFlight.size;
    if (free <= 0) return;
    const claimed = await claimDueDeliveries(
      this.prisma.sql,
      free,
      this.config.WEBHOOK_TIMEOUT_MS + CLAIM_SLACK_MS,
      this.config.WEBHOOK_CONCURRENCY_PER_KEY,
    );
    for (const delivery of claimed) {
      const attempt = this.#attempt(delivery)
        .catch((error: unknown) =>
          this.logger.error({ err: error, deliveryId: delivery.id }, 'webhook attempt failed'),
        )
        .finally(() => this.#inFlight.delete(attempt));
      this.#inFlight.add(attempt);
    }
  }

  async #attempt(delivery: ClaimedDelivery): Promise<void> {
    const startedAt = new Date();
    let secrets: string[];
    try {
      secrets = [delivery.sealedSecret, delivery.previousSealedSecret]
        .filter((sealed): sealed is string => sealed !== null)
        .map((sealed) => openSecret(this.keys.secretSealing, sealed));
    } catch (error) {
      // Sealed under another HALLMARK_SECRET: nothing can be signed, so nothing is sent. Recorded
      // as a failed attempt, the delivery follows its schedule to an end (and says why) instead
      // of being claimed again every time its claim lapses.
      this.logger.error({ err: error, deliveryId: delivery.id }, SECRET_UNREADABLE);
      await this.#record(delivery, startedAt, failure(SECRET_UNREADABLE, null, 0));
      return;
    }
    const body = JSON.stringify({
      type: delivery.eventType,
      timestamp: delivery.eventAt.toISOString(),
      data: delivery.eventData,
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const caused =
      delivery.traceContext === null ? undefined : { traceparent: delivery.traceContext };
    // In the trace of the run that caused the event; the receiver gets its traceparent.
    const result = await inTraceOf(caused, () =>
      traced(
        'webhook send',
        {
          'hallmark.event_type': delivery.eventType,
          'hallmark.webhook_id': delivery.eventId,
          'hallmark.attempt': delivery.attempt,
        },
        async (span) => {
          const sent = await sendWebhook(
            delivery.url,
            {
              'webhook-id': delivery.eventId,
              'webhook-timestamp': String(timestamp),
              'webhook-signature': signWebhook(secrets, delivery.eventId, timestamp, body),
              ...activeTraceContext(),
            },
            body,
            {
              timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
              allowPrivateAddresses: this.config.WEBHOOK_ALLOW_PRIVATE_ADDRESSES,
            },
          );
          if (sent.statusCode !== null) {
            span?.setAttribute('http.response.status_code', sent.statusCode);
          }
          return sent;
        },
        SpanKind.CLIENT,
      ),
    );
    await this.#record(delivery, startedAt, result);
  }

  /** Logs an attempt and when the next is due (none past the schedule's end). */
  async #record(delivery: ClaimedDelivery, startedAt: Date, result: SendResult): Promise<void> {
    const outcome = result.succeeded ? 'delivered' : 'failed';
    webhookDeliveries.inc({ outcome });
    webhookLatency.observe({ outcome }, result.latencyMs / 1000);
    // The schedule's n-th wait follows the n-th attempt; past its end the delivery has failed.
    const wait = this.#schedule[delivery.attempt - 1];
    const disabled = await recordAttempt(
      this.prisma.sql,
      {
        deliveryId: delivery.id,
        attempt: delivery.attempt,
        startedAt,
        ...result,
        retryAt: result.succeeded || wait === undefined ? null : new Date(Date.now() + wait * 1000),
      },
      new Date(Date.now() - this.config.WEBHOOK_DISABLE_AFTER_HOURS * 3_600_000),
    );
    this.logger.info(
      {
        deliveryId: delivery.id,
        eventId: delivery.eventId,
        attempt: delivery.attempt,
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        error: result.error,
      },
      result.succeeded ? 'webhook delivered' : 'webhook attempt failed',
    );
    if (disabled !== null) await this.#tellDisabled(disabled);
  }

  async #tellDisabled(endpoint: DisabledEndpoint): Promise<void> {
    this.logger.warn(
      { endpointId: endpoint.id, url: endpoint.url },
      'webhook endpoint disabled: every attempt failed too long',
    );
    const operator = this.config.OPERATOR_EMAIL;
    if (operator === undefined) return;
    await this.mailer
      .send({
        to: operator,
        subject: `Webhook endpoint disabled: ${endpoint.url}`,
        text: `Every delivery to ${endpoint.url} (endpoint ${endpoint.id}) failed for ${this.config.WEBHOOK_DISABLE_AFTER_HOURS} hours, so it was disabled. Its key sees it disabled in GET /webhooks and can register it again once it works.`,
      })
      .catch((error: unknown) =>
        this.logger.error({ err: error }, 'could not send the notice of a disabled endpoint'),
      );
  }
}
