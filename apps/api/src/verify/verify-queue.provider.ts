import {
  CONFIG,
  createVerifyQueue,
  type HallmarkConfig,
  LOGGER,
  type Logger,
  type VerifyQueue,
} from '@hallmark/platform';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';

/** The API's producer connection to the verify queue. */
@Injectable()
export class VerifyQueueProvider implements OnModuleDestroy {
  readonly queue: VerifyQueue;

  constructor(@Inject(CONFIG) config: HallmarkConfig, @Inject(LOGGER) logger: Logger) {
    this.queue = createVerifyQueue(config);
    this.queue.on('error', (error) =>
      logger.debug({ err: error.message }, 'verify queue connection error'),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.queue.close();
  }
}
