import {
  CONFIG,
  createWatermarkQueue,
  enqueueWatermarkJob,
  type HallmarkConfig,
  LOGGER,
  type Logger,
  type WatermarkQueue,
} from '@hallmark/platform';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';

/** The API's producer connection to the watermark queue. */
@Injectable()
export class WatermarkQueueProvider implements OnModuleDestroy {
  readonly queue: WatermarkQueue;
  readonly #config: HallmarkConfig;
  readonly #logger: Logger;

  constructor(@Inject(CONFIG) config: HallmarkConfig, @Inject(LOGGER) logger: Logger) {
    this.#config = config;
    this.#logger = logger;
    this.queue = createWatermarkQueue(config);
    // Without a listener a lost Redis would crash the process; the reconciler re-queues.
    this.queue.on('error', (error) =>
      logger.debug({ err: error.message }, 'queue connection error'),
    );
  }

  /**
   * Queues the job of `requestId`; when Redis cannot take it now, the job row (already written)
   * is enough: the reconciler queues it later, so the request still succeeds.
   */
  async enqueueOrDefer(requestId: string): Promise<void> {
    try {
      await enqueueWatermarkJob(this.queue, requestId, this.#config);
    } catch (error) {
      this.#logger.warn(
        { requestId, err: (error as Error).message },
        'queueing deferred to the reconciler',
      );
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.queue.close();
  }
}
