import { PrismaService } from '@hallmark/runtime';
import type { AdminOverview } from '@hallmark/schemas';
import { Injectable } from '@nestjs/common';
import { ReadinessService } from '../health/readiness.service.ts';
import { JobQueueProvider } from '../queue/job-queue.provider.ts';

const DAY_MS = 86_400_000;

/** What an operator looks at first: dependencies, the queue, the last day's jobs, what is late. */
@Injectable()
export class AdminOverviewService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly readiness: ReadinessService,
    private readonly queues: JobQueueProvider,
  ) {}

  async overview(): Promise<AdminOverview> {
    const since = new Date(Date.now() - DAY_MS);
    const [readiness, counts, byStatus, failures, pending, overdue] = await Promise.all([
      this.readiness.check(),
      this.queues
        .queue('watermark')
        .getJobCounts('waiting', 'active', 'delayed')
        .catch(() => null),
      this.prisma.client.watermarkJob.groupBy({
        by: ['status'],
        where: { createdAt: { gte: since } },
        _count: { _all: true },
      }),
      this.prisma.client.watermarkJob.groupBy({
        by: ['errorCode'],
        where: { status: 'failed', finishedAt: { gte: since } },
        _count: { _all: true },
      }),
      this.prisma.client.keyRequest.count({ where: { status: 'pending' } }),
      this.prisma.client.keyRequest.count({
        where: { status: 'pending', dueAt: { lt: new Date() } },
      }),
    ]);
    const jobs = { pending: 0, processing: 0, success: 0, failed: 0 };
    for (const row of byStatus) jobs[row.status] = row._count._all;
    return {
      ready: readiness.status === 'ready',
      checks: Object.fromEntries(
        Object.entries(readiness.checks).map(([name, check]) => [name, check.status]),
      ),
      queue:
        counts === null
          ? null
          : {
              waiting: counts.waiting ?? 0,
              active: counts.active ?? 0,
              delayed: counts.delayed ?? 0,
            },
      jobsLast24h: jobs,
      failuresLast24h: failures
        .map((row) => ({ code: row.errorCode ?? 'unknown', count: row._count._all }))
        .sort((a, b) => b.count - a.count),
      pendingKeyRequests: pending,
      overdueKeyRequests: overdue,
    };
  }
}
