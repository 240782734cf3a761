import { CONFIG, type HallmarkConfig, LOGGER, type Logger } from '@hallmark/platform';
import { QUEUES, verifyJobPayloadSchema } from '@hallmark/schemas';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { VerificationRunner } from './verification-runner.ts';

/**
 * Consumes the verify queue: WORKER_CONCURRENCY verifications at once, retried with backoff on
 * transient failures (storage, database), failed at once for images the engines refuse.
 */
@Injectable()
export class VerificationWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  #worker: Worker | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly runner: VerificationRunner,
  ) {}

  onApplicationBootstrap(): void {
    this.#worker = new Worker(QUEUES.verify, (job) => this.#process(job), {
      connection: { url: this.config.REDIS_URL, maxRetriesPerRequest: null },
      prefix: this.config.REDIS_PREFIX,
      concurrency: this.config.WORKER_CONCURRENCY,
      lockDuration: this.config.JOB_LOCK_MS,
    });
    this.#worker.on('error', (error) =>
      this.logger.debug({ err: error.message }, 'verify queue connection error'),
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.#worker?.close();
  }

  async #process(job: Job): Promise<string> {
    const payload = verifyJobPayloadSchema.safeParse(job.data);
    if (!payload.success) {
      throw new UnrecoverableError(`malformed verify queue entry: ${payload.error.message}`);
    }
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    return this.runner.run(payload.data.requestId, lastAttempt);
  }
}
