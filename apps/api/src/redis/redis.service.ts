import type { HallmarkConfig, Logger } from '@hallmark/config';
import { CONFIG, LOGGER, redisConnection, redisKeyPrefix } from '@hallmark/runtime';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { type Cluster, Redis } from 'ioredis';

const CONNECT_TIMEOUT_MS = 2_000;

/**
 * The API's Redis connection. Commands fail fast while Redis is away (no offline queue) so a
 * request or a readiness probe answers at once instead of hanging; the client keeps reconnecting
 * in the background and logs each outage once.
 */
@Injectable()
export class RedisService implements OnModuleInit, OnModuleDestroy {
  readonly client: Redis | Cluster;
  private down = false;
  private lastError: string | undefined;

  constructor(@Inject(CONFIG) config: HallmarkConfig, @Inject(LOGGER) logger: Logger) {
    const connection = redisConnection(config, {
      keyPrefix: `${redisKeyPrefix(config)}:`,
      // Commands issued in the same tick (the rate-limit counts of concurrent requests) leave
      // in one write.
      enableAutoPipelining: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: CONNECT_TIMEOUT_MS,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    });
    this.client =
      connection.kind === 'cluster'
        ? connection.client
        : connection.url === undefined
          ? new Redis(connection.options)
          : new Redis(connection.url, connection.options);
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

  /**
   * Start-up waits for the first connection (or its first failure, or the connect timeout), so
   * the first requests are counted by the rate limiter like the rest: a connection still being
   * made is not an outage, and without the wait the limiter would let them through uncounted.
   */
  async onModuleInit(): Promise<void> {
    if (this.client.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.client.off('ready', done);
        this.client.off('error', done);
        resolve();
      };
      const timer = setTimeout(done, CONNECT_TIMEOUT_MS);
      this.client.once('ready', done);
      this.client.once('error', done);
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.client.disconnect();
  }
}
