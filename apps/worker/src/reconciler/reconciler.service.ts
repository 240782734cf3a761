import {
  CONFIG,
  enqueueVerification,
  enqueueWatermarkJob,
  type HallmarkConfig,
  LOGGER,
  type Logger,
  PrismaService,
  type VerifyQueue,
  type WatermarkQueue,
} from '@hallmark/platform';
import { QUEUES } from '@hallmark/schemas';
import { InjectQueue } from '@nestjs/bullmq';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { Queue } from 'bullmq';
import { PeriodicTask } from '../periodic-task.ts';

const BATCH = 200;

/**
 * Finds jobs whose row says pending/processing but that nothing is working on: the API could
 * not reach Redis when it accepted them, or Redis lost its data. It queues them again. A job
 * that waits or runs already has a queue entry with its id, and one that a live run holds (its
 * lease renewed) is left alone. Queueing again never doubles work: a run must hold the job's
 * lease to change it, and the row counts attempts and crashes across re-queues, so a job that
 * keeps failing or crashing ends `failed` instead of being re-queued forever. A job whose worker
 * crashed is returned by BullMQ itself once its lock lapses.
 */
@Injectable()
export class Reconciler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly #task: PeriodicTask;

  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly prisma: PrismaService,
    @InjectQueue(QUEUES.watermark) private readonly queue: WatermarkQueue,
    @InjectQueue(QUEUES.verify) private readonly verifyQueue: VerifyQueue,
  ) {
    for (const queue of [this.queue, this.verifyQueue]) {
      queue.on('error', () => {
        // Reported by the worker's own connection; a failed pass is simply tried again later.
      });
    }
    this.#task = new PeriodicTask(
      config.RECONCILE_INTERVAL_MS,
      async () => {
        const count = await this.reconcileOnce();
        const verifications = await this.reconcileVerifications();
        if (count + verifications > 0) {
          this.logger.info({ count, verifications }, 'reconciler re-queued jobs');
        }
      },
      (error) => this.logger.warn({ err: (error as Error).message }, 'reconciler pass failed'),
    );
  }

  onApplicationBootstrap(): void {
    this.#task.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.#task.stop();
  }

  /** One pass: returns how many jobs were queued again. */
  async reconcileOnce(): Promise<number> {
    const now = Date.now();
    const idleSince = new Date(now - this.config.RECONCILE_AFTER_MS);
    const stuck = await this.prisma.client.watermarkJob.findMany({
      where: {
        status: { in: ['pending', 'processing'] },
        updatedAt: { lt: idleSince },
        // A run renewing its lease is working on the job, however long ago the row changed.
        OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: new Date(now) } }],
      },
      select: { id: true },
      orderBy: { updatedAt: 'asc' },
      take: BATCH,
    });
    return requeueMissing(
      this.queue,
      stuck.map((row) => row.id),
      (id) => enqueueWatermarkJob(this.queue, id, this.config),
      // Touching the row restarts its idle clock, so the next pass leaves it alone.
      (id) =>
        this.prisma.client.watermarkJob.update({ where: { id }, data: { updatedAt: new Date() } }),
    );
  }

  /** The same for verifications: rows left pending/processing with no queue entry. */
  async reconcileVerifications(): Promise<number> {
    const idleSince = new Date(Date.now() - this.config.RECONCILE_AFTER_MS);
    const stuck = await this.prisma.client.verification.findMany({
      where: { status: { in: ['pending', 'processing'] }, updatedAt: { lt: idleSince } },
      select: { id: true },
      orderBy: { updatedAt: 'asc' },
      take: BATCH,
    });
    return requeueMissing(
      this.verifyQueue,
      stuck.map((row) => row.id),
      (id) => enqueueVerification(this.verifyQueue, id, this.config),
      (id) =>
        this.prisma.client.verification.update({ where: { id }, data: { updatedAt: new Date() } }),
    );
  }
}

/**
 * Queues again each row whose queue entry is gone (or finished while the row is not): an entry
 * that waits or runs is left alone. Returns how many were queued.
 */
async function requeueMissing(
  queue: Queue<{ requestId: string }>,
  ids: readonly string[],
  enqueue: (id: string) => Promise<void>,
  touch: (id: string) => Promise<unknown>,
): Promise<number> {
  let queued = 0;
  for (const id of ids) {
    const entry = await queue.getJob(id);
    const state = entry === undefined ? 'missing' : await entry.getState();
    if (state === 'completed' || state === 'failed') await entry?.remove();
    if (['missing', 'unknown', 'completed', 'failed'].includes(state)) {
      await enqueue(id);
      await touch(id);
      queued += 1;
    }
  }
  return queued;
}
