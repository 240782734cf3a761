import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type Logger } from '@hallmark/config';
import {
  lastSeenOtherWorker,
  pruneActivity,
  recordHeartbeat,
  rollUpActivity,
  rollUpKeyUsage,
  type Sql,
  sampleQueues,
  type WorkerIdentity,
} from '@hallmark/db';
import { LOGGER, PrismaService } from '@hallmark/runtime';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { PeriodicTask } from '../periodic-task.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Often enough for a heartbeat the console calls live, rarely enough to cost nothing. */
const INTERVAL_MS = 30_000;
/** How much history the charts can show: a week, and a day to spare for time zones. */
const KEEP_HOURS_MS = 8 * DAY_MS;
const KEEP_KEY_DAYS_MS = 90 * DAY_MS;
/** Each pass recomputes the current and previous hour (work ending just before it turned). */
const RECENT_HOURS = 2;
// One pass rolls up at a time across workers: a second would only write the same rows again.
const ROLLUP_LOCK = "pg_try_advisory_xact_lock(hashtext('hallmark.activity-rollup'))";

const startOfHour = (at: number) => new Date(Math.floor(at / HOUR_MS) * HOUR_MS);
const startOfDay = (at: number) => new Date(Math.floor(at / DAY_MS) * DAY_MS);

export interface RollupReport {
  /** False when another worker's pass held the lock: it rolled up the same hours. */
  readonly rolledUp: boolean;
  readonly activityRows: number;
  readonly keyDays: number;
}

/**
 * Keeps the console's history in PostgreSQL (see `@hallmark/db`'s activity statements): every
 * pass writes this worker's heartbeat and a sample of the queues, then recomputes the recent
 * hours of finished work and the recent days of each key's usage, and forgets what is older
 * than the charts show. The first pass of a process also fills in the hours that ended while no
 * worker ran: from an hour before another worker was last seen (its passes covered the time
 * before), or the whole kept history when none was, so a fleet's restarts do not each recompute
 * the week. Safe on every worker at once: the rollup takes a transaction-scoped advisory lock,
 * and recomputing is idempotent anyway.
 */
@Injectable()
export class ActivityRollup implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly #task: PeriodicTask;
  readonly #worker: WorkerIdentity = {
    id: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    host: hostname(),
    pid: process.pid,
    startedAt: new Date(),
  };
  #caughtUp = false;

  constructor(
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly prisma: PrismaService,
  ) {
    this.#task = new PeriodicTask(
      INTERVAL_MS,
      async () => {
        await this.rollUpOnce();
      },
      (error) => this.logger.warn({ err: (error as Error).message }, 'activity rollup failed'),
    );
  }

  onApplicationBootstrap(): void {
    // The first pass at once: the console shows a new worker, and the hours it missed, sooner.
    this.#task.start({ now: true });
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.#task.stop();
  }

  async rollUpOnce(now = new Date()): Promise<RollupReport> {
    const recent = now.getTime() - (RECENT_HOURS - 1) * HOUR_MS;
    let since = recent;
    if (!this.#caughtUp) {
      const seen = await lastSeenOtherWorker(this.prisma.sql, this.#worker.id);
      since = Math.min(
        recent,
        Math.max(now.getTime() - KEEP_HOURS_MS, (seen?.getTime() ?? 0) - HOUR_MS),
      );
    }
    await recordHeartbeat(this.prisma.sql, this.#worker, now);
    await sampleQueues(this.prisma.sql, now);
    const report = await this.prisma.transaction(async (sql): Promise<RollupReport> => {
      if (!(await this.#lock(sql))) return { rolledUp: false, activityRows: 0, keyDays: 0 };
      const activityRows = await rollUpActivity(
        sql,
        startOfHour(since),
        new Date(startOfHour(now.getTime()).getTime() + HOUR_MS),
      );
      const keyDays = await rollUpKeyUsage(sql, startOfDay(since));
      await pruneActivity(
        sql,
        new Date(now.getTime() - KEEP_HOURS_MS),
        new Date(now.getTime() - KEEP_KEY_DAYS_MS),
      );
      return { rolledUp: true, activityRows, keyDays };
    });
    if (report.rolledUp) this.#caughtUp = true;
    return report;
  }

  async #lock(sql: Sql): Promise<boolean> {
    const { rows } = await sql.query<{ locked: boolean }>(`SELECT ${ROLLUP_LOCK} AS locked`);
    return rows[0]?.locked === true;
  }
}
