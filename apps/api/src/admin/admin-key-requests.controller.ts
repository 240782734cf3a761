import { audited, decideKeyRequest, type KeyRequest, type Operator } from '@hallmark/db';
import { PrismaService } from '@hallmark/platform';
import {
  type AdminKeyRequest,
  AdminRejection,
  KeyRequestState,
  RequestIdParams,
} from '@hallmark/schemas';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CurrentOperator } from '../auth/client.ts';
import { KeyRequestMail } from '../key-requests/key-request-mail.ts';
import { PageQuery, pageOf, pastCursor } from '../paging/pages.ts';
import { ProblemException } from '../problem/problem.exception.ts';
import { unixSeconds } from '../time/unix-seconds.ts';
import { parseRequest } from '../validation/parse-request.ts';
import { AdminRoute } from './admin-route.decorator.ts';
import { byOperator } from './audit-actor.ts';

const ListQuery = PageQuery.extend({ status: KeyRequestState.optional() });

function view(row: KeyRequest): AdminKeyRequest {
  return {
    requestId: row.id,
    status: row.status,
    companyName: row.companyName,
    purpose: row.purpose,
    contactName: row.contactName,
    contactEmail: row.contactEmail,
    website: row.website,
    expectedVolume: row.expectedVolume,
    submittedAt: unixSeconds(row.createdAt),
    dueAt: unixSeconds(row.dueAt),
    overdue: row.status === 'pending' && row.dueAt.getTime() < Date.now(),
    decidedAt: row.decidedAt === null ? null : unixSeconds(row.decidedAt),
    decidedBy: row.decidedBy,
    reason: row.reason,
    keyCollected: row.apiKeyId !== null,
  };
}

/** Key requests for operators: read by any, decided by admins, every decision audited. */
@AdminRoute()
@Controller('admin/key-requests')
export class AdminKeyRequestsController {
  constructor(
    private readonly prisma: PrismaService,
    private readonly mail: KeyRequestMail,
  ) {}

  /** Oldest first (the next due on top), a stable cursor over (created at, id). */
  @Get()
  async list(@Query() query: Record<string, unknown>) {
    const { status, cursor, limit } = parseRequest(ListQuery, query, 'query');
    const rows = await this.prisma.client.keyRequest.findMany({
      where: {
        ...(status === undefined ? {} : { status }),
        ...pastCursor(cursor, 'createdAt', 'asc'),
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: limit + 1,
    });
    const { page, nextCursor } = pageOf(rows, limit, (row) => row.createdAt);
    return { items: page.map(view), nextCursor };
  }

  @Post(':requestId/approve')
  @HttpCode(200)
  approve(
    @Param('requestId') requestId: string,
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
  ): Promise<AdminKeyRequest> {
    return this.#decide(requestId, operator, byOperator(operator, request), null);
  }

  @Post(':requestId/reject')
  @HttpCode(200)
  reject(
    @Param('requestId') requestId: string,
    @Body() body: unknown,
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
  ): Promise<AdminKeyRequest> {
    const { reason } = parseRequest(AdminRejection, body, 'body');
    return this.#decide(requestId, operator, byOperator(operator, request), reason);
  }

  async #decide(
    requestId: string,
    operator: Operator,
    who: ReturnType<typeof byOperator>,
    reason: string | null,
  ): Promise<AdminKeyRequest> {
    const { requestId: id } = parseRequest(RequestIdParams, { requestId }, 'path');
    const decided = await audited(
      this.prisma.client,
      (tx) =>
        decideKeyRequest(
          tx,
          id,
          reason === null
            ? { approve: true, by: operator.email }
            : { approve: false, reason, by: operator.email },
        ),
      (done) =>
        done === null
          ? null
          : {
              ...who,
              action: reason === null ? 'key_request.approve' : 'key_request.reject',
              target: `key_request:${id}`,
              details:
                reason === null
                  ? { company: done.companyName }
                  : { company: done.companyName, reason },
            },
    );
    if (decided === null) {
      const exists = await this.prisma.client.keyRequest.findUnique({ where: { id } });
      if (exists === null) throw ProblemException.notFound(`No key request ${id}.`);
      throw ProblemException.alreadyDecided(
        `Key request ${id} was decided already (${exists.status}).`,
      );
    }
    await this.mail.decided(decided);
    return view(decided);
  }
}
