import { type HallmarkConfig, type Logger } from '@hallmark/config';
import {
  findIdleJobs,
  findIdleVerifications,
  markJobRequeued,
  markVerificationRequeued,
  type Sql,
} from '@hallmark/db';
import {
  CONFIG,
  JOB_KINDS,
  type JobKind,
  JobQueues,
  LOGGER,
  PrismaService,
} from '@hallmark/runtime';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { PeriodicTask } from '../periodic-task.ts';

const BATCH = 200;

/** Each kind's rows as the reconciler finds them idle and restarts their idle clock. */
const ROWS: Readonly<
  Record<
    JobKind,
    {
      readonly findIdle: (sql: Sql, idleSince: Date, limit: number) => Promise<string[]>;
      readonly markRequeued: (sql: Sql, id: string) => Promise<void>;
    }
  >
> = {
  watermark: { findIdle: findIdleJobs, markRequeued: markJobRequeued },
  verify: { findIdle: findIdleVerifications, markRequeued: markVerificationRequeued },
};

/**
 * Finds rows (jobs, verifications) that say pending/processing but that nothing is working on:
 * the API could not reach Redis when it accepted them, or Redis lost its data. It queues them
 * again. A row that waits or runs already has a queue entry with its id, and a job that a live
 * run holds (its lease renewed) is left alone. Queueing again never doubles work: a run must
 * hold the job's lease to change it, and the row counts attempts and crashes across re-queues,
 * so a job that keeps failing or crashing ends `failed` instead of being re-queued forever. A
 * job whose worker crashed is returned by BullMQ itself once its lock lapses.
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
        const counts: Partial<Record<JobKind, number>> = {};
        for (const kind of JOB_KINDS) counts[kind] = await this.reconcile(kind);
        if (Object.values(counts).some((count) => count > 0)) {
          this.logger.info(counts, 'reconciler re-queued jobs');
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

  /**
   * One pass over one kind: queues again each idle row whose queue entry is gone (or finished
   * while the row is not); an entry that waits or runs is left alone. Returns how many were
   * queued; a row that could not be is left as it is, for the next pass.
   */
  async reconcile(kind: JobKind): Promise<number> {
    const rows = ROWS[kind];
    const idleSince = new Date(Date.now() - this.config.RECONCILE_AFTER_MS);
    const ids = await rows.findIdle(this.prisma.sql, idleSince, BATCH);
    const queue = this.#queues.queue(kind);
    let queued = 0;
    for (const id of ids) {
      const entry = await queue.getJob(id);
      const state = entry === undefined ? 'missing' : await entry.getState();
      if (state === 'completed' || state === 'failed') await entry?.remove();
      if (!['missing', 'unknown', 'completed', 'failed'].includes(state)) continue;
      if (await this.#queues.enqueue(kind, id)) {
        // Restarting the row's idle clock lets the next passes leave it to its entry.
        await rows.markRequeued(this.prisma.sql, id);
        queued += 1;
      }
    }
    return queued;
  }
}
