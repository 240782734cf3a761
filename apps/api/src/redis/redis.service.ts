import type { HallmarkConfig, Logger } from '@hallmark/platform';
import { CONFIG, LOGGER } from '@hallmark/platform';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Redis } from 'ioredis';

/**
 * The API's Redis connection. Commands fail fast while Redis is away (no offline queue) so a
 * request or a readiness probe answers at once instead of hanging; the client keeps reconnecting
 * in the background and logs each outage once.
 */
@Injectable()
export class RedisService implements OnModuleDestroy {
  readonly client: Redis;
  private down = false;
  private lastError: string | undefined;

  constructor(@Inject(CONFIG) config: HallmarkConfig, @Inject(LOGGER) logger: Logger) {
    this.client = new Redis(config.REDIS_URL, {
      keyPrefix: `${config.REDIS_PREFIX}:`,
      // Commands issued in the same tick (the rate-limit counts of concurrent requests) leave
      // in one write.
      enableAutoPipelining: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    });
    this.client.on('error', (error: Error) => {
      this.lastError = error.message;
      if (this.down) return;
      this.down = true;
      logger.warn({ err: error.message }, 'redis unreachable; retrying in the background');
    });
    this.client.on('ready', () => {
      if (this.down) logger.info('redis reachable again');
      this.down = false;
    });
  }

  /**
   * PING that waits (up to `timeoutMs`) for a connection still being made, instead of failing
   * at once because the offline queue is off; a probe right after start-up then tells the truth.
   */
  async ping(timeoutMs: number): Promise<void> {
    const status = this.client.status;
    if (this.lastError !== undefined && ['reconnecting', 'close', 'end'].includes(status)) {
      // Between reconnection attempts: the last failure is the answer, no need to wait.
      throw new Error(this.lastError);
    }
    if (status !== 'ready') {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          this.client.off('ready', onReady);
          reject(
            new Error(
              `not connected within ${timeoutMs} ms (${this.lastError ?? this.client.status})`,
            ),
          );
        }, timeoutMs);
        const onReady = () => {
          clearTimeout(timer);
          resolve();
        };
        this.client.once('ready', onReady);
      });
    }
    await this.client.ping();
  }

  async onModuleDestroy(): Promise<void> {
    this.client.disconnect();
  }
}
