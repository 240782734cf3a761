import { type HallmarkConfig, type Logger } from '@hallmark/config';
import { CONFIG, JobQueues, LOGGER } from '@hallmark/runtime';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';

/**
 * The API's producer connections to every job queue: `enqueue(kind, id)` after the row is
 * written (a failed enqueue is left to the reconciler: see JobQueues).
 */
@Injectable()
export class JobQueueProvider extends JobQueues implements OnModuleDestroy {
  constructor(@Inject(CONFIG) config: HallmarkConfig, @Inject(LOGGER) logger: Logger) {
    super(config, logger);
  }

  async onModuleDestroy(): Promise<void> {
    await this.close();
  }
}
