import {
  type DueObject,
  lockDueInputs,
  lockDueOutputs,
  lockDueVerificationInputs,
  markInputsDeleted,
  markOutputsDeleted,
  pruneWebhookLog,
  recoverStaleUploads,
  type Sql,
} from '@hallmark/db';
import {
  CONFIG,
  type HallmarkConfig,
  LOGGER,
  type Logger,
  OBJECT_STORAGE,
  PrismaService,
  staleUploadBound,
} from '@hallmark/platform';
import type { ObjectStorage } from '@hallmark/storage';
import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { PeriodicTask } from '../periodic-task.ts';

const DAY_MS = 86_400_000;
const BATCH = 100;

export interface SweepReport {
  readonly staleUploads: number;
  readonly inputs: number;
  /** Files uploaded only for verification, VERIFY_RETENTION_HOURS after it. */
  readonly verifiedInputs: number;
  readonly outputs: number;
  readonly temporaries: number;
  /** Webhook events (with their deliveries and attempts) past WEBHOOK_LOG_RETENTION_DAYS. */
  readonly webhookEvents: number;
}

/**
 * Keeps storage from growing without bound. Each pass (every RETENTION_SWEEP_INTERVAL_MS, on
 * every worker) returns uploads left `uploading` by a dead process to `awaiting_upload`, deletes
 * inputs RETENTION_INPUT_DAYS after their last job ended (or after an upload no job used),
 * files uploaded only for verification VERIFY_RETENTION_HOURS after it, outputs of failed jobs
 * with the inputs, outputs of successful jobs after RETENTION_OUTPUT_DAYS
 * when set (kept for ever otherwise), temporary files a dead process left, and the webhook
 * log (settled events) after WEBHOOK_LOG_RETENTION_DAYS. Safe on every
 * instance at once: due rows are locked with SKIP LOCKED, and a pass that dies rolls back.
 */
@Injectable()
export class RetentionSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly #task: PeriodicTask;

  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly prisma: PrismaService,
  ) {
    this.#task = new PeriodicTask(
      config.RETENTION_SWEEP_INTERVAL_MS,
      async () => {
        const report = await this.sweepOnce();
        if (Object.values(report).some((count) => count > 0)) {
          this.logger.info(report, 'retention sweep');
        }
      },
      (error) => this.logger.warn({ err: (error as Error).message }, 'retention sweep failed'),
    );
  }

  onApplicationBootstrap(): void {
    this.#task.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.#task.stop();
  }

  async sweepOnce(now = new Date()): Promise<SweepReport> {
    const staleBefore = staleUploadBound(this.config, now.getTime());
    const staleUploads = (await recoverStaleUploads(this.prisma.sql, staleBefore)).length;
    const inputCutoff = new Date(now.getTime() - this.config.RETENTION_INPUT_DAYS * DAY_MS);
    const outputCutoff =
      this.config.RETENTION_OUTPUT_DAYS === undefined
        ? null
        : new Date(now.getTime() - this.config.RETENTION_OUTPUT_DAYS * DAY_MS);
    const inputs = await this.#deleteAll(
      (sql) => lockDueInputs(sql, inputCutoff, BATCH),
      (sql, ids) => markInputsDeleted(sql, ids, now),
    );
    const verifiedCutoff = new Date(now.getTime() - this.config.VERIFY_RETENTION_HOURS * 3_600_000);
    const verifiedInputs = await this.#deleteAll(
      (sql) => lockDueVerificationInputs(sql, verifiedCutoff, BATCH),
      (sql, ids) => markInputsDeleted(sql, ids, now),
    );
    const outputs = await this.#deleteAll(
      (sql) => lockDueOutputs(sql, outputCutoff, inputCutoff, BATCH),
      (sql, ids) => markOutputsDeleted(sql, ids, now),
    );
    const temporaries = await this.storage.removeStaleTemporaries(staleBefore);
    const webhookCutoff = new Date(now.getTime() - this.config.WEBHOOK_LOG_RETENTION_DAYS * DAY_MS);
    let webhookEvents = 0;
    for (;;) {
      const pruned = await this.prisma.transaction((sql) =>
        pruneWebhookLog(sql, webhookCutoff, BATCH),
      );
      webhookEvents += pruned;
      if (pruned < BATCH) break;
    }
    return { staleUploads, inputs, verifiedInputs, outputs, temporaries, webhookEvents };
  }

  /** Batch after batch, each in its own transaction, until nothing is due. */
  async #deleteAll(
    lockDue: (sql: Sql) => Promise<DueObject[]>,
    markDeleted: (sql: Sql, ids: string[]) => Promise<void>,
  ): Promise<number> {
    let total = 0;
    for (;;) {
      const count = await this.prisma.transaction(async (sql) => {
        const due = await lockDue(sql);
        for (const object of due) await this.storage.delete(object.storageKey);
        if (due.length > 0)
          await markDeleted(
            sql,
            due.map((object) => object.id),
          );
        return due.length;
      });
      total += count;
      if (count < BATCH) return total;
    }
  }
}
