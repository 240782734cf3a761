import { PrismaService } from '@hallmark/platform';
import {
  type AdminWebhookEndpoint,
  EndpointIdParams,
  type WebhookEventType,
} from '@hallmark/schemas';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { PageQuery, pageOf, pastCursor } from '../paging/pages.ts';
import { ProblemException } from '../problem/problem.exception.ts';
import { unixSeconds } from '../time/unix-seconds.ts';
import { parseRequest } from '../validation/parse-request.ts';
import { deliveryLogPage } from '../webhooks/delivery-log.ts';
import { AdminRoute } from './admin-route.decorator.ts';

/** Every key's webhook endpoints and their delivery log, for operators (read only). */
@AdminRoute()
@Controller('admin/webhooks')
export class AdminWebhooksController {
  constructor(private readonly prisma: PrismaService) {}

  @Get()
  async endpoints(@Query() query: Record<string, unknown>) {
    const { cursor, limit } = parseRequest(PageQuery, query, 'query');
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

  @Get(':endpointId/deliveries')
  async deliveries(
    @Param('endpointId') endpointId: string,
    @Query() query: Record<string, unknown>,
  ) {
    const params = parseRequest(EndpointIdParams, { endpointId }, 'path');
    const { cursor, limit } = parseRequest(PageQuery, query, 'query');
    const endpoint = await this.prisma.client.webhookEndpoint.findUnique({
      where: { id: params.endpointId },
    });
    if (endpoint === null) throw ProblemException.notFound('No such webhook endpoint.');
    return deliveryLogPage(this.prisma, endpoint.id, cursor, limit);
  }
}
