import { PrismaService } from '@hallmark/runtime';
import type { AuditEntryView, AuditPage } from '@hallmark/schemas';
import { Injectable } from '@nestjs/common';

/** Reads of the audit log, newest first; its entries are written by `audited()` in each change. */
@Injectable()
export class AdminAuditService {
  constructor(private readonly prisma: PrismaService) {}

  async page(cursor: string | undefined, limit: number): Promise<AuditPage> {
    const rows = await this.prisma.client.auditEntry.findMany({
      where: cursor === undefined ? {} : { id: { lt: BigInt(cursor) } },
      orderBy: { id: 'desc' },
      take: limit + 1,
      include: { operator: { select: { email: true } } },
    });
    const page = rows.slice(0, limit);
    const items: AuditEntryView[] = page.map((row) => ({
      id: row.id.toString(),
      operator: row.operator?.email ?? row.actor,
      action: row.action,
      target: row.target,
      details: row.details as Record<string, unknown>,
      address: row.address,
      at: Math.floor(row.at.getTime() / 1000),
    }));
    return { items, nextCursor: rows.length > limit ? (page.at(-1)?.id.toString() ?? null) : null };
  }
}
