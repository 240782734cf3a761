import { CONFIG, type HallmarkConfig, LOGGER, type Logger } from '@hallmark/platform';
import { PixelPool } from '@hallmark/platform/pixels';
import { QUEUES, watermarkJobPayloadSchema } from '@hallmark/schemas';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { MAX_CRASHES, WatermarkPipeline } from './watermark-pipeline.ts';

/**
 * Consumes the watermark queue. The BullMQ worker is built here rather than with @Processor so
 * that concurrency and lock duration come from the validated configuration.
 *
 * Concurrency: WORKER_CONCURRENCY images are marked at once, and each pixel thread has one more
 * job in hand, being read from the database and storage (or written back) meanwhile; without it
 * the threads would idle for those few milliseconds between any two jobs.
 *
 * Failures (decided by the pipeline, under the job's lease): a permanent one (bad image,
 * unavailable technique) fails the job row at once; any other is retried with exponential
 * backoff, and fails the row after the last attempt, with the error's own code when it has one
 * (`rpc_unreachable`, ...) and `internal_error` otherwise. The row counts attempts and crashes
 * across queue entries and re-queues, so nothing is retried forever.
 */
@Injectable()
export class WatermarkWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  #worker: Worker | undefined;
  #lastConnectionError: { message: string; at: number } | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly pipeline: WatermarkPipeline,
    private readonly pixels: PixelPool,
  ) {}

  onApplicationBootstrap(): void {
    this.#worker = new Worker(QUEUES.watermark, (job) => this.#process(job), {
      connection: { url: this.config.REDIS_URL, maxRetriesPerRequest: null },
      prefix: this.config.REDIS_PREFIX,
      concurrency: this.config.WORKER_CONCURRENCY + this.pixels.layout.threads,
      lockDuration: this.config.JOB_LOCK_MS,
      stalledInterval: this.config.JOB_LOCK_MS,
      // An entry whose worker died is delivered again until the job's own crash budget (kept
      // in its row, across re-queues) fails it with worker_crashed.
      maxStalledCount: MAX_CRASHES + 1,
    });
    this.#worker.on('error', (error) => this.#logConnectionError(error));
  }

  async beforeApplicationShutdown(): Promise<void> {
    // Takes no new job and waits for the running ones (the process deadline bounds the wait).
    await this.#worker?.close();
  }

  async #process(job: Job): Promise<string> {
    const payload = watermarkJobPayloadSchema.safeParse(job.data);
    if (!payload.success) {
      throw new UnrecoverableError(`malformed watermark queue entry: ${payload.error.message}`);
    }
    const { requestId } = payload.data;
    const lastQueueAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const deadline = AbortSignal.timeout(this.config.JOB_TIMEOUT_MS);
    const result = await this.pipeline.run(requestId, { lastQueueAttempt, deadline });
    if (result.outcome === 'busy') {
      // Another run works on the job (a second queue entry for it): look again after a backoff;
      // on the last delivery leave it to that run (the reconciler re-queues it if that run dies).
      if (!lastQueueAttempt) {
        throw new Error(
          `job ${requestId} is held by another run until ${result.until.toISOString()}`,
        );
      }
      return 'skipped';
    }
    return result.outcome;
  }

  /** A lost Redis shows as repeated 'error' events: one structured line per error every 10 s. */
  #logConnectionError(error: Error): void {
    const now = Date.now();
    const last = this.#lastConnectionError;
    if (last !== undefined && last.message === error.message && now - last.at < 10_000) return;
    this.#lastConnectionError = { message: error.message, at: now };
    this.logger.warn({ err: error.message }, 'queue connection error; BullMQ keeps retrying');
  }
}
