import { PrismaService } from '@hallmark/runtime';
import type {
  AdminWebhookEndpoint,
  AdminWebhookEndpointPage,
  WebhookEventType,
} from '@hallmark/schemas';
import { Injectable } from '@nestjs/common';
import { pageOf, pastCursor } from '../paging/pages.ts';
import { ProblemException } from '../problem/problem.exception.ts';
import { unixSeconds } from '../time/unix-seconds.ts';
import { deliveryLogPage } from '../webhooks/delivery-log.ts';

/** Every key's webhook endpoints and their delivery log, for operators (read only). */
@Injectable()
export class AdminWebhooksService {
  constructor(private readonly prisma: PrismaService) {}

  async endpoints(cursor: string | undefined, limit: number): Promise<AdminWebhookEndpointPage> {
    const rows = await this.prisma.client.webhookEndpoint.findMany({
      where: { deletedAt: null, ...pastCursor(cursor, 'createdAt', 'desc') },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
      include: { apiKey: { select: { prefix: true } } },
    });
    const { page, nextCursor } = pageOf(rows, limit, (row) => row.createdAt);
    const counts = await this.prisma.client.webhookDelivery.groupBy({
      by: ['endpointId', 'status'],
      where: { endpointId: { in: page.map((row) => row.id) } },
      _count: { _all: true },
    });
    const items: AdminWebhookEndpoint[] = page.map((row) => {
      const deliveries = { pending: 0, succeeded: 0, failed: 0 };
      for (const count of counts) {
        if (count.endpointId === row.id) deliveries[count.status] = count._count._all;
      }
      return {
        id: row.id,
        url: row.url,
        keyPrefix: row.apiKey.prefix,
        events: row.eventTypes as WebhookEventType[],
        createdAt: unixSeconds(row.createdAt),
        disabledAt: row.disabledAt === null ? null : unixSeconds(row.disabledAt),
        disabledReason: row.disabledReason,
        deliveries,
      };
    });
    return { items, nextCursor };
  }

  async deliveries(endpointId: string, cursor: string | undefined, limit: number) {
    const endpoint = await this.prisma.client.webhookEndpoint.findUnique({
      where: { id: endpointId },
    });
    if (endpoint === null) throw ProblemException.notFound('No such webhook endpoint.');
    return deliveryLogPage(this.prisma, endpoint.id, cursor, limit);
  }
}
