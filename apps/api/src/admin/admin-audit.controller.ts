import { PrismaService } from '@hallmark/platform';
import { type AuditEntryView, AuditQuery } from '@hallmark/schemas';
import { Controller, Get, Query } from '@nestjs/common';
import { parseRequest } from '../validation/parse-request.ts';
import { AdminRoute } from './admin-route.decorator.ts';

/**
 * The audit log, newest first: every change an operator made, every sign-in and sign-out, and
 * what the CLI did on the server (`operator` then says `cli:<user>@<host>`, or `anonymous` for a
 * sign-in that failed).
 */
@AdminRoute()
@Controller('admin/audit')
export class AdminAuditController {
  constructor(private readonly prisma: PrismaService) {}

  @Get()
  async list(@Query() query: Record<string, unknown>) {
    const { cursor, limit } = parseRequest(AuditQuery, query, 'query');
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
