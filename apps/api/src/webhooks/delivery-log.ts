import type { PrismaService } from '@hallmark/runtime';
import type { WebhookDelivery } from '@hallmark/schemas';
import { pageOf, pastCursor } from '../paging/pages.ts';
import { deliveryView } from './webhook-views.ts';

/** A page of an endpoint's deliveries, newest first, each with every attempt (key and admin API). */
export async function deliveryLogPage(
  prisma: PrismaService,
  endpointId: string,
  cursor: string | undefined,
  limit: number,
): Promise<{ items: WebhookDelivery[]; nextCursor: string | null }> {
  const rows = await prisma.client.webhookDelivery.findMany({
    where: { endpointId, ...pastCursor(cursor, 'createdAt', 'desc') },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
    include: { event: true, log: { orderBy: { id: 'asc' } } },
  });
  const { page, nextCursor } = pageOf(rows, limit, (row) => row.createdAt);
  return { items: page.map(deliveryView), nextCursor };
}
