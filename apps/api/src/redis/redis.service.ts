import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { HallmarkConfig, Logger } from '@hallmark/platform';
import { Redis } from 'ioredis';
import { CONFIG, LOGGER } from '@hallmark/platform';

/**
 * The API's Redis connection. Commands fail fast while Redis is away (no offline queue) so a
 * request or a readiness probe answers at once instead of hanging; the client keeps reconnecting
 * in the background and logs each outage once.
 */
@Injectable()
export class RedisService implements OnModuleDestroy {
  readonly client: Redis;
  private down = false;

  constructor(@Inject(CONFIG) config: HallmarkConfig, @Inject(LOGGER) logger: Logger) {
    this.client = new Redis(config.REDIS_URL, {
      keyPrefix: `${config.REDIS_PREFIX}:`,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    });
    this.client.on('error', (error: Error) => {
      if (this.down) return;
      this.down = true;
      logger.warn({ err: error.message }, 'redis unreachable; retrying in the background');
    });
    this.client.on('ready', () => {
      if (this.down) logger.info('redis reachable again');
      this.down = false;
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.client.disconnect();
  }
}
