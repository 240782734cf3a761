import { PrismaService } from '@hallmark/runtime';
import type {
  AdminVerification,
  AdminVerificationDetail,
  AdminVerificationPage,
  AdminVerificationQuery,
  Verdict,
} from '@hallmark/schemas';
import type { StoredReport } from '@hallmark/verification';
import { Injectable } from '@nestjs/common';
import { pageOf, pastCursor } from '../paging/pages.ts';
import { ProblemException } from '../problem/problem.exception.ts';
import { unixSeconds } from '../time/unix-seconds.ts';
import { UnkeyedVerifications } from '../verify/public-verifications.service.ts';
import { VerificationViews } from '../verify/verification-views.ts';

/** The columns and relations a verification's view reads. */
const VIEWED = {
  id: true,
  origin: true,
  status: true,
  verdict: true,
  markPayload: true,
  manifestId: true,
  fileId: true,
  createdAt: true,
  finishedAt: true,
  apiKey: { select: { prefix: true } },
  operator: { select: { email: true } },
} as const;

type VerificationRow = {
  id: string;
  origin: AdminVerification['origin'];
  status: AdminVerification['status'];
  verdict: string | null;
  markPayload: string | null;
  manifestId: string | null;
  fileId: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  apiKey: { prefix: string } | null;
  operator: { email: string } | null;
};

function view(row: VerificationRow): AdminVerification {
  return {
    verificationId: row.id,
    origin: row.origin,
    keyPrefix: row.apiKey?.prefix ?? null,
    operatorEmail: row.operator?.email ?? null,
    status: row.status,
    // Written only from the decision table's verdicts.
    verdict: row.verdict as Verdict | null,
    markPayload: row.markPayload,
    manifestId: row.manifestId,
    fileId: row.fileId,
    createdAt: unixSeconds(row.createdAt),
    finishedAt: row.finishedAt === null ? null : unixSeconds(row.finishedAt),
  };
}

/**
 * Every verification, for operators: by clients' keys, on the public page, in the console;
 * filtered, paged, each with its report as the public page shows it plus the ids behind it.
 * Admins also verify an image here.
 */
@Injectable()
export class AdminVerificationsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly unkeyed: UnkeyedVerifications,
    private readonly views: VerificationViews,
  ) {}

  /** Newest first. */
  async list(q: AdminVerificationQuery): Promise<AdminVerificationPage> {
    const rows = await this.prisma.client.verification.findMany({
      where: {
        ...(q.verdict === undefined ? {} : { verdict: q.verdict }),
        ...(q.key === undefined ? {} : { apiKey: { prefix: q.key } }),
        ...(q.origin === undefined ? {} : { origin: q.origin }),
        createdAt: {
          ...(q.from === undefined ? {} : { gte: new Date(q.from * 1000) }),
          ...(q.to === undefined ? {} : { lt: new Date(q.to * 1000) }),
        },
        ...pastCursor(q.cursor, 'createdAt', 'desc'),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: q.limit + 1,
      select: VIEWED,
    });
    const { page, nextCursor } = pageOf(rows, q.limit, (row) => row.createdAt);
    return { items: page.map(view), nextCursor };
  }

  async detail(id: string): Promise<AdminVerificationDetail> {
    const row = await this.prisma.client.verification.findUnique({
      where: { id },
      select: { ...VIEWED, report: true, errorCode: true, errorMessage: true },
    });
    if (row === null) throw ProblemException.notFound(`No verification ${id}.`);
    const stored = row.status === 'success' ? (row.report as unknown as StoredReport | null) : null;
    return {
      ...view(row),
      issuedRequestId: stored?.issuedRequestId ?? null,
      error:
        row.status === 'failed'
          ? {
              code: row.errorCode ?? 'internal_error',
              message: row.errorMessage ?? 'The verification failed.',
            }
          : null,
      report: stored === null ? null : await this.views.forAnyone(stored),
    };
  }

  /** An operator's verification of an image: recorded with them, the image never stored. */
  async verify(bytes: Uint8Array, operatorId: string): Promise<AdminVerificationDetail> {
    const { id } = await this.unkeyed.verify(bytes, { origin: 'console', operatorId });
    return this.detail(id);
  }
}
