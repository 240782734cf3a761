import { audited, decideKeyRequest, type KeyRequest, type Operator } from '@hallmark/db';
import { PrismaService } from '@hallmark/runtime';
import type { AdminKeyRequest, AdminKeyRequestPage, KeyRequestState } from '@hallmark/schemas';
import { Injectable } from '@nestjs/common';
import { KeyRequestMail } from '../key-requests/key-request-mail.ts';
import { KeyRequestSecrets } from '../key-requests/key-request-secrets.ts';
import { pageOf, pastCursor } from '../paging/pages.ts';
import { ProblemException } from '../problem/problem.exception.ts';
import { unixSeconds } from '../time/unix-seconds.ts';
import type { AuditActor } from './audit-actor.ts';

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
    keyCollected: row.apiKeyId !== null && row.sealedApiKey === null,
  };
}

/** Key requests for operators: read by any, decided by admins, every decision audited. */
@Injectable()
export class AdminKeyRequestsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly mail: KeyRequestMail,
    private readonly secrets: KeyRequestSecrets,
  ) {}

  /** Oldest first (the next due on top), a stable cursor over (created at, id). */
  async list(
    status: KeyRequestState | undefined,
    cursor: string | undefined,
    limit: number,
  ): Promise<AdminKeyRequestPage> {
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

  /**
   * Approves (`reason` null: the key is made at once, sealed until its requester collects it) or
   * rejects a pending request, audited, and tells the requester.
   */
  async decide(
    id: string,
    operator: Operator,
    who: AuditActor,
    reason: string | null,
  ): Promise<AdminKeyRequest> {
    const decided = await audited(
      this.prisma.client,
      (tx) =>
        decideKeyRequest(
          tx,
          id,
          reason === null
            ? { approve: true, by: operator.email, sealer: this.secrets }
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
                  ? { company: done.companyName, apiKey: done.apiKeyPrefix }
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
