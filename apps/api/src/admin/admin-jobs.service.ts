import { audited, retryFailedJob } from '@hallmark/db';
import { OBJECT_STORAGE, PrismaService } from '@hallmark/runtime';
import {
  type AdminJob,
  type AdminJobDetail,
  type AdminJobPage,
  type AdminJobQuery,
  isRetryableJobError,
  problemTypes,
} from '@hallmark/schemas';
import type { ObjectStorage } from '@hallmark/storage';
import { Inject, Injectable } from '@nestjs/common';
import { pageOf, pastCursor } from '../paging/pages.ts';
import { ProblemException } from '../problem/problem.exception.ts';
import { JobQueueProvider } from '../queue/job-queue.provider.ts';
import { unixSeconds } from '../time/unix-seconds.ts';
import { JobViewCache } from '../watermark/job-view-cache.service.ts';
import type { AuditActor } from './audit-actor.ts';

/** Links in the job detail live this long: long enough to look, too short to share. */
const PREVIEW_TTL_MS = 10 * 60_000;

type JobRow = {
  id: string;
  status: AdminJob['status'];
  fileId: string;
  options: unknown;
  createdAt: Date;
  finishedAt: Date | null;
  attempts: number;
  errorCode: string | null;
  apiKey: { prefix: string };
};

function view(row: JobRow): AdminJob {
  const options = (row.options ?? {}) as {
    watermarkType?: string[];
    mintNft?: boolean;
    storeIpfs?: boolean;
  };
  return {
    requestId: row.id,
    status: row.status,
    keyPrefix: row.apiKey.prefix,
    fileId: row.fileId,
    watermarkTypes: options.watermarkType ?? [],
    mintNft: options.mintNft === true,
    storeIpfs: options.storeIpfs === true,
    createdAt: unixSeconds(row.createdAt),
    finishedAt: row.finishedAt === null ? null : unixSeconds(row.finishedAt),
    attempts: row.attempts,
    errorCode: row.errorCode,
    retryable: row.status === 'failed' && isRetryableJobError(row.errorCode),
  };
}

/** Every key's jobs, for operators: filtered, paged, with a before/after preview; admins retry. */
@Injectable()
export class AdminJobsService {
  constructor(
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly prisma: PrismaService,
    private readonly queues: JobQueueProvider,
    private readonly jobRows: JobViewCache,
  ) {}

  /** Newest first. */
  async list(q: AdminJobQuery): Promise<AdminJobPage> {
    const rows = await this.prisma.client.watermarkJob.findMany({
      where: {
        ...(q.status === undefined ? {} : { status: q.status }),
        ...(q.key === undefined ? {} : { apiKey: { prefix: q.key } }),
        ...(q.technique === undefined
          ? {}
          : { options: { path: ['watermarkType'], array_contains: [q.technique] } }),
        createdAt: {
          ...(q.from === undefined ? {} : { gte: new Date(q.from * 1000) }),
          ...(q.to === undefined ? {} : { lt: new Date(q.to * 1000) }),
        },
        ...pastCursor(q.cursor, 'createdAt', 'desc'),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: q.limit + 1,
      include: { apiKey: { select: { prefix: true } } },
    });
    const { page, nextCursor } = pageOf(rows, q.limit, (row) => row.createdAt);
    return { items: page.map(view), nextCursor };
  }

  async detail(id: string): Promise<AdminJobDetail> {
    const row = await this.prisma.client.watermarkJob.findUnique({
      where: { id },
      include: { apiKey: { select: { prefix: true } }, file: true },
    });
    if (row === null) throw ProblemException.notFound(`No watermark job ${id}.`);
    const expiresAt = new Date(Date.now() + PREVIEW_TTL_MS);
    const link = (key: string | null, contentType: string | null, gone: boolean) =>
      key === null || gone
        ? Promise.resolve(null)
        : this.storage.downloadLink(key, {
            expiresAt,
            contentType: contentType ?? 'application/octet-stream',
          });
    return {
      ...view(row),
      options: (row.options ?? {}) as Record<string, unknown>,
      steps: Array.isArray(row.steps) ? (row.steps as Record<string, unknown>[]) : [],
      errorMessage: row.errorMessage,
      contentType: row.file.contentType,
      inputUrl: await link(
        row.file.status === 'uploaded' ? row.file.storageKey : null,
        row.file.contentType,
        row.file.deletedAt !== null,
      ),
      outputUrl: await link(
        row.outputStorageKey,
        row.outputContentType,
        row.outputDeletedAt !== null,
      ),
    };
  }

  /**
   * A failed job runs again from the start of its budget (its stored output, if any, is kept),
   * unless its failure is one another run would meet again (the picture itself caused it).
   */
  async retry(id: string, who: AuditActor): Promise<AdminJob> {
    const failed = await this.prisma.client.watermarkJob.findUnique({
      where: { id },
      select: { status: true, errorCode: true },
    });
    if (failed === null) throw ProblemException.notFound(`No watermark job ${id}.`);
    // A failed job's code changes only by a retry, which the update below also requires.
    if (failed.status === 'failed' && !isRetryableJobError(failed.errorCode)) {
      throw new ProblemException(
        problemTypes.jobNotRetryable,
        `The job failed with ${failed.errorCode ?? 'no code'}, which another run of the same picture meets again; the client must send another one.`,
      );
    }
    const retried = await audited(
      this.prisma.client,
      (tx) => retryFailedJob(tx, id),
      (done) => (done ? { ...who, action: 'job.retry', target: `job:${id}` } : null),
    );
    if (!retried) {
      const now = await this.prisma.client.watermarkJob.findUniqueOrThrow({ where: { id } });
      throw ProblemException.alreadyDecided(
        `Only a failed job can be retried; this one is ${now.status}.`,
      );
    }
    // The trigger tells every process; this one must not answer from its cache meanwhile.
    this.jobRows.forget(id);
    await this.queues.enqueue('watermark', id);
    const row = await this.prisma.client.watermarkJob.findUniqueOrThrow({
      where: { id },
      include: { apiKey: { select: { prefix: true } } },
    });
    return view(row);
  }
}
