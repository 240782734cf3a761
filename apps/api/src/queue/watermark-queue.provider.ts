import {
  CONFIG,
  createWatermarkQueue,
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

  constructor(@Inject(CONFIG) config: HallmarkConfig, @Inject(LOGGER) logger: Logger) {
    this.queue = createWatermarkQueue(config);
    // Without a listener a lost Redis would crash the process; the reconciler re-queues.
    this.queue.on('error', (error) =>
      logger.debug({ err: error.message }, 'queue connection error'),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.queue.close();
  }
}
