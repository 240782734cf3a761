import { type HallmarkConfig, sealSecret } from '@hallmark/config';
import { redeliver } from '@hallmark/db';
import {
  CONFIG,
  generateWebhookSecret,
  isPrivateHost,
  PrismaService,
  SERVICE_KEYS,
  type ServiceKeys,
} from '@hallmark/runtime';
import {
  problemTypes,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointCreate,
} from '@hallmark/schemas';
import { Inject, Injectable } from '@nestjs/common';
import { pageOf, pastCursor } from '../paging/pages.ts';
import { ProblemException } from '../problem/problem.exception.ts';
import { deliveryLogPage } from './delivery-log.ts';
import { deliveryView, endpointView } from './webhook-views.ts';

const LIVE = { deletedAt: null };

/** A key's webhook endpoints: registered, listed, rotated, deleted, and their delivery log. */
@Injectable()
export class WebhooksService {
  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    @Inject(SERVICE_KEYS) private readonly keys: ServiceKeys,
    private readonly prisma: PrismaService,
  ) {}

  async create(apiKeyId: string, request: WebhookEndpointCreate): Promise<WebhookEndpoint> {
    const url = new URL(request.url);
    if (!this.config.WEBHOOK_ALLOW_PRIVATE_ADDRESSES && isPrivateHost(url.hostname)) {
      throw new ProblemException(
        problemTypes.validationError,
        'Webhook endpoints on loopback, link-local or private addresses are refused.',
        [{ path: 'url', message: `${url.hostname} is a private address` }],
      );
    }
    const secret = generateWebhookSecret();
    const limit = this.config.QUOTA_WEBHOOK_ENDPOINTS;
    // Counted and added under a lock of the key's own: parallel registrations cannot pass the
    // count together.
    const row = await this.prisma.client.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`webhook-endpoints:${apiKeyId}`}))`;
      const live = await tx.webhookEndpoint.count({ where: { apiKeyId, ...LIVE } });
      if (live >= limit) {
        throw ProblemException.quotaExceeded(
          'webhook_endpoints',
          limit,
          `This API key has ${live} webhook endpoints; its quota is ${limit}. Delete one to add another.`,
        );
      }
      return tx.webhookEndpoint.create({
        data: {
          apiKeyId,
          url: url.href,
          eventTypes: [...new Set(request.events ?? [])],
          sealedSecret: sealSecret(this.keys.secretSealing, secret),
        },
      });
    });
    return endpointView(row, secret);
  }

  async list(apiKeyId: string, cursor: string | undefined, limit: number) {
    const rows = await this.prisma.client.webhookEndpoint.findMany({
      where: { apiKeyId, ...LIVE, ...pastCursor(cursor, 'createdAt', 'desc') },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
    });
    const { page, nextCursor } = pageOf(rows, limit, (row) => row.createdAt);
    return { items: page.map((row) => endpointView(row)), nextCursor };
  }

  async delete(apiKeyId: string, endpointId: string): Promise<void> {
    await this.#owned(apiKeyId, endpointId);
    const now = new Date();
    await this.prisma.client.$transaction([
      this.prisma.client.webhookEndpoint.update({
        where: { id: endpointId },
        data: { deletedAt: now },
      }),
      // Nothing more goes out to it: its pending retries end here.
      this.prisma.client.webhookDelivery.updateMany({
        where: { endpointId, status: 'pending' },
        data: { status: 'failed', nextAttemptAt: null },
      }),
    ]);
  }

  async rotate(apiKeyId: string, endpointId: string): Promise<WebhookEndpoint> {
    const current = await this.#owned(apiKeyId, endpointId);
    const secret = generateWebhookSecret();
    const row = await this.prisma.client.webhookEndpoint.update({
      where: { id: endpointId },
      data: {
        sealedSecret: sealSecret(this.keys.secretSealing, secret),
        previousSealedSecret: current.sealedSecret,
        previousSecretExpiresAt: new Date(
          Date.now() + this.config.WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000,
        ),
      },
    });
    return endpointView(row, secret);
  }

  async deliveries(
    apiKeyId: string,
    endpointId: string,
    cursor: string | undefined,
    limit: number,
  ) {
    await this.#owned(apiKeyId, endpointId);
    return deliveryLogPage(this.prisma, endpointId, cursor, limit);
  }

  async redeliver(
    apiKeyId: string,
    endpointId: string,
    deliveryId: string,
  ): Promise<WebhookDelivery> {
    const endpoint = await this.#owned(apiKeyId, endpointId);
    if (endpoint.disabledAt !== null) {
      throw new ProblemException(
        problemTypes.endpointDisabled,
        'This endpoint was disabled after failing too long; register it again once it works.',
      );
    }
    // An attempt under way is left to finish: it is the redelivery asked for.
    if ((await redeliver(this.prisma.sql, endpointId, deliveryId)) === 'missing') {
      throw ProblemException.notFound('This endpoint has no such delivery.');
    }
    const row = await this.prisma.client.webhookDelivery.findUniqueOrThrow({
      where: { id: deliveryId },
      include: { event: true, log: { orderBy: { id: 'asc' } } },
    });
    return deliveryView(row);
  }

  /** The key's live endpoint, or a 404 (another key's endpoint does not exist for this one). */
  async #owned(apiKeyId: string, endpointId: string) {
    const row = await this.prisma.client.webhookEndpoint.findFirst({
      where: { id: endpointId, apiKeyId, ...LIVE },
    });
    if (row === null) throw ProblemException.notFound('This key has no such webhook endpoint.');
    return row;
  }
}
