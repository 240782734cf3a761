import { type HallmarkConfig, type Logger, staleUploadBound } from '@hallmark/config';
import {
  type DueObject,
  forgetQueuedDeletions,
  lockDueInputs,
  lockDueOutputs,
  lockDueVerificationInputs,
  lockQueuedDeletions,
  markInputsDeleted,
  markOutputsDeleted,
  pruneWebhookLog,
  recoverStaleUploads,
  type Sql,
} from '@hallmark/db';
import { CONFIG, LOGGER, OBJECT_STORAGE, PrismaService } from '@hallmark/runtime';
import type { ObjectStorage } from '@hallmark/storage';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { PeriodicTask } from '../periodic-task.ts';
import { removeStaleScratch, scratchRoot } from '../scratch-folder.ts';

const DAY_MS = 86_400_000;
const BATCH = 100;

export interface SweepReport {
  readonly staleUploads: number;
  readonly inputs: number;
  /** Files uploaded only for verification, VERIFY_RETENTION_HOURS after it. */
  readonly verifiedInputs: number;
  readonly outputs: number;
  /** Objects removed from storage: those of this pass's rows and any an earlier pass left. */
  readonly removedObjects: number;
  readonly temporaries: number;
  /** Scratch folders of runs that died (a run ends within JOB_TIMEOUT_MS). */
  readonly scratchFolders: number;
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
 * log (settled events) after WEBHOOK_LOG_RETENTION_DAYS. Rows are marked deleted (and their
 * objects queued) before any object is removed, so a row never points at bytes that are gone; a
 * pass that dies after marking leaves queued objects that the next pass removes. Safe on every
 * instance at once: due rows and queued objects are locked with SKIP LOCKED.
 */
@Injectable()
export class RetentionSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
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

  async beforeApplicationShutdown(): Promise<void> {
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
    const removedObjects = await this.#removeQueuedObjects();
    const temporaries = await this.storage.removeStaleTemporaries(staleBefore);
    // A live run is younger than its time limit; a minute more covers clocks and the last write.
    const scratchFolders = await removeStaleScratch(
      scratchRoot(this.config),
      new Date(now.getTime() - this.config.JOB_TIMEOUT_MS - 60_000),
    );
    const webhookCutoff = new Date(now.getTime() - this.config.WEBHOOK_LOG_RETENTION_DAYS * DAY_MS);
    let webhookEvents = 0;
    for (;;) {
      const pruned = await this.prisma.transaction((sql) =>
        pruneWebhookLog(sql, webhookCutoff, BATCH),
      );
      webhookEvents += pruned;
      if (pruned < BATCH) break;
    }
    return {
      staleUploads,
      inputs,
      verifiedInputs,
      outputs,
      removedObjects,
      temporaries,
      scratchFolders,
      webhookEvents,
    };
  }

  /** Marks due rows deleted (queueing their objects), batch after batch, until none is due. */
  async #deleteAll(
    lockDue: (sql: Sql) => Promise<DueObject[]>,
    markDeleted: (sql: Sql, ids: string[]) => Promise<void>,
  ): Promise<number> {
    let total = 0;
    for (;;) {
      const count = await this.prisma.transaction(async (sql) => {
        const due = await lockDue(sql);
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

  /**
   * Removes the queued objects, batch after batch; a batch's keys are forgotten only when each
   * of its objects is gone, so a failed removal is tried again by a later pass.
   */
  async #removeQueuedObjects(): Promise<number> {
    let total = 0;
    for (;;) {
      const count = await this.prisma.transaction(async (sql) => {
        const keys = await lockQueuedDeletions(sql, BATCH);
        for (const key of keys) await this.storage.delete(key);
        if (keys.length > 0) await forgetQueuedDeletions(sql, keys);
        return keys.length;
      });
      total += count;
      if (count < BATCH) return total;
    }
  }
}
