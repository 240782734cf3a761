import {
  CONFIG,
  type HallmarkConfig,
  type JobKind,
  JobQueues,
  LOGGER,
  type Logger,
  PrismaService,
} from '@hallmark/platform';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
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
  readonly #queues: JobQueues;

  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly prisma: PrismaService,
  ) {
    // A producer like the API's: while Redis is away a pass fails fast and is tried again later.
    this.#queues = new JobQueues(config, logger);
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
    await this.#queues.close();
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
    return this.#requeueMissing(
      'watermark',
      stuck.map((row) => row.id),
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
    return this.#requeueMissing(
      'verify',
      stuck.map((row) => row.id),
      (id) =>
        this.prisma.client.verification.update({ where: { id }, data: { updatedAt: new Date() } }),
    );
  }

  /**
   * Queues again each row whose queue entry is gone (or finished while the row is not): an entry
   * that waits or runs is left alone. Returns how many were queued; one that could not be is
   * left untouched, for the next pass.
   */
  async #requeueMissing(
    kind: JobKind,
    ids: readonly string[],
    touch: (id: string) => Promise<unknown>,
  ): Promise<number> {
    const queue = this.#queues.queue(kind);
    let queued = 0;
    for (const id of ids) {
      const entry = await queue.getJob(id);
      const state = entry === undefined ? 'missing' : await entry.getState();
      if (state === 'completed' || state === 'failed') await entry?.remove();
      if (!['missing', 'unknown', 'completed', 'failed'].includes(state)) continue;
      if (await this.#queues.enqueue(kind, id)) {
        await touch(id);
        queued += 1;
      }
    }
    return queued;
  }
}
