import {
  CONFIG,
  type HallmarkConfig,
  LOGGER,
  type Logger,
  PrismaService,
} from '@hallmark/platform';
import { QUEUES, WatermarkOptions, watermarkJobPayloadSchema } from '@hallmark/schemas';
import { InjectQueue, OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, type OnModuleInit } from '@nestjs/common';
import { type Job, Queue, UnrecoverableError } from 'bullmq';

export type WatermarkOutcome =
  | { outcome: 'failed'; code: string }
  | { outcome: 'skipped'; reason: string };

/**
 * Runs watermark jobs. The job row in Postgres is the source of truth; the queue entry only says
 * "look at this row", so running an entry twice is harmless: finished rows are skipped.
 */
@Processor(QUEUES.watermark)
export class WatermarkProcessor extends WorkerHost implements OnModuleInit {
  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly prisma: PrismaService,
    @InjectQueue(QUEUES.watermark) queue: Queue,
  ) {
    super();
    queue.on('error', (error) => this.onWorkerError(error));
  }

  onModuleInit(): void {
    // The decorator's options are fixed at import time; concurrency comes from configuration.
    this.worker.concurrency = this.config.WORKER_CONCURRENCY;
  }

  private lastConnectionError: { message: string; at: number } | undefined;

  /**
   * BullMQ reports a lost Redis as repeated 'error' events (worker and queue) while it
   * reconnects; without a listener they would go to the console as stack traces. One structured line per distinct
   * error every 10 s is enough to see an outage.
   */
  @OnWorkerEvent('error')
  onWorkerError(error: Error): void {
    const now = Date.now();
    const last = this.lastConnectionError;
    if (last !== undefined && last.message === error.message && now - last.at < 10_000) return;
    this.lastConnectionError = { message: error.message, at: now };
    this.logger.warn({ err: error.message }, 'queue connection error; BullMQ keeps retrying');
  }

  async process(job: Job): Promise<WatermarkOutcome> {
    const payload = watermarkJobPayloadSchema.safeParse(job.data);
    if (!payload.success) {
      // A malformed entry can never succeed: fail it for good instead of retrying.
      throw new UnrecoverableError(`malformed watermark job payload: ${payload.error.message}`);
    }
    const { requestId } = payload.data;
    const row = await this.prisma.client.watermarkJob.findUnique({ where: { id: requestId } });
    if (row === null) return { outcome: 'skipped', reason: 'no such job row' };
    if (row.status === 'success' || row.status === 'failed') {
      return { outcome: 'skipped', reason: `already ${row.status}` };
    }

    await this.prisma.client.watermarkJob.update({
      where: { id: requestId },
      data: { status: 'processing', startedAt: new Date(), attempts: { increment: 1 } },
    });
    const options = WatermarkOptions.safeParse(row.options);
    // Neither watermark engine exists yet (the invisible mark and C2PA signing arrive with their
    // own issues), so every requested technique is unavailable: the job says so instead of
    // producing a file that only pretends to be watermarked.
    const failure = options.success
      ? {
          code: 'technique_unavailable',
          message: `This service cannot apply ${options.data.watermarkType.join(', ')} yet.`,
        }
      : {
          code: 'invalid_request',
          message: `Stored options are invalid: ${options.error.message}`,
        };
    await this.prisma.client.watermarkJob.update({
      where: { id: requestId },
      data: {
        status: 'failed',
        errorCode: failure.code,
        errorMessage: failure.message,
        finishedAt: new Date(),
      },
    });
    this.logger.info({ requestId, code: failure.code }, 'watermark job failed');
    return { outcome: 'failed', code: failure.code };
  }
}
