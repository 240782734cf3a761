import type { HallmarkConfig } from '@hallmark/config';

export type RedisConnectionConfig = Pick<
  HallmarkConfig,
  'REDIS_URL' | 'REDIS_SENTINELS' | 'REDIS_SENTINEL_NAME'
>;

/** The options both ioredis and BullMQ take for it (BullMQ reads `url` itself). */
export type RedisConnection =
  | { readonly url: string }
  | {
      readonly url?: undefined;
      readonly sentinels: Array<{ host: string; port: number }>;
      readonly name: string;
      readonly username?: string;
      readonly password?: string;
      readonly db?: number;
      readonly tls?: object;
      readonly enableTLSForSentinelMode?: boolean;
    };

/**
 * How every Redis client of a process reaches the configured Redis: the one server of
 * REDIS_URL, or, with REDIS_SENTINELS, whichever server the Sentinels name primary of
 * REDIS_SENTINEL_NAME (REDIS_URL then gives only the credentials, database and TLS). A client
 * made from these follows a failover: when its connection drops it asks the Sentinels again.
 * The api's client, the queues' producers and the worker's consumers all use it, adding their
 * own timeouts and retry rules.
 */
export function redisConnection(config: RedisConnectionConfig): RedisConnection {
  if (config.REDIS_SENTINELS === undefined) return { url: config.REDIS_URL };
  const url = new URL(config.REDIS_URL);
  const db = Number(url.pathname.slice(1) || '0');
  return {
    sentinels: config.REDIS_SENTINELS.map(({ host, port }) => ({ host, port })),
    name: config.REDIS_SENTINEL_NAME,
    ...(url.username === '' ? {} : { username: decodeURIComponent(url.username) }),
    ...(url.password === '' ? {} : { password: decodeURIComponent(url.password) }),
    ...(Number.isInteger(db) && db > 0 ? { db } : {}),
    ...(url.protocol === 'rediss:' ? { tls: {}, enableTLSForSentinelMode: true } : {}),
  };
}
