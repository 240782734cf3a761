import type { HallmarkConfig } from '@hallmark/config';
import type { RedisOptions as BullRedisOptions, ConnectionOptions } from 'bullmq';
import { Cluster, type RedisOptions } from 'ioredis';

export type RedisConnectionConfig = Pick<
  HallmarkConfig,
  'REDIS_URL' | 'REDIS_SENTINELS' | 'REDIS_SENTINEL_NAME' | 'REDIS_CLUSTER_NODES' | 'REDIS_PREFIX'
>;

/** What a client adds to the connection: its timeouts, retries and offline queue. */
export interface RedisClientOptions {
  readonly enableOfflineQueue?: boolean;
  readonly maxRetriesPerRequest?: number | null;
  readonly connectTimeout?: number;
  readonly enableAutoPipelining?: boolean;
  readonly retryStrategy?: (attempt: number) => number | null;
  /** Put before every key the client names (ioredis's `keyPrefix`). */
  readonly keyPrefix?: string;
}

/** One server or a Sentinel set (options ioredis and BullMQ both take), or a Cluster client. */
export type RedisConnection =
  | { readonly kind: 'options'; readonly url: string | undefined; readonly options: RedisOptions }
  | { readonly kind: 'cluster'; readonly client: Cluster };

/**
 * How every Redis client of a process reaches the configured Redis: the one server of
 * REDIS_URL; with REDIS_SENTINELS, whichever server the Sentinels name primary of
 * REDIS_SENTINEL_NAME (the client asks them again when its connection drops, so it follows a
 * failover); with REDIS_CLUSTER_NODES, a Redis Cluster found from those nodes. REDIS_URL gives
 * the credentials, database and TLS in the last two cases. The api's client, the queues'
 * producers and the worker's consumers all come from here, each with its own client options.
 */
export function redisConnection(
  config: RedisConnectionConfig,
  client: RedisClientOptions = {},
): RedisConnection {
  const credentials = credentialsOf(config.REDIS_URL);
  if (config.REDIS_CLUSTER_NODES !== undefined) {
    const { enableOfflineQueue, keyPrefix, ...perNode } = client;
    return {
      kind: 'cluster',
      client: new Cluster(
        config.REDIS_CLUSTER_NODES.map(({ host, port }) => ({ host, port })),
        {
          redisOptions: { ...credentials, ...perNode },
          ...(enableOfflineQueue === undefined ? {} : { enableOfflineQueue }),
          ...(keyPrefix === undefined ? {} : { keyPrefix }),
          ...(client.enableAutoPipelining === undefined
            ? {}
            : { enableAutoPipelining: client.enableAutoPipelining }),
          ...(client.retryStrategy === undefined
            ? {}
            : { clusterRetryStrategy: client.retryStrategy }),
        },
      ),
    };
  }
  if (config.REDIS_SENTINELS === undefined) {
    return { kind: 'options', url: config.REDIS_URL, options: { ...client } };
  }
  return {
    kind: 'options',
    url: undefined,
    options: {
      ...credentials,
      ...client,
      sentinels: config.REDIS_SENTINELS.map(({ host, port }) => ({ host, port })),
      name: config.REDIS_SENTINEL_NAME,
      ...(credentials.tls === undefined ? {} : { enableTLSForSentinelMode: true }),
    },
  };
}

/**
 * Where every key of this deployment starts. In a Redis Cluster a BullMQ queue's keys and a Lua
 * script's keys must share a slot: the prefix becomes a hash tag (`{hallmark}`), so they do.
 */
export function redisKeyPrefix(
  config: Pick<HallmarkConfig, 'REDIS_PREFIX' | 'REDIS_CLUSTER_NODES'>,
): string {
  return config.REDIS_CLUSTER_NODES === undefined
    ? config.REDIS_PREFIX
    : `{${config.REDIS_PREFIX}}`;
}

function credentialsOf(redisUrl: string): RedisOptions {
  const url = new URL(redisUrl);
  const db = Number(url.pathname.slice(1) || '0');
  return {
    ...(url.username === '' ? {} : { username: decodeURIComponent(url.username) }),
    ...(url.password === '' ? {} : { password: decodeURIComponent(url.password) }),
    ...(Number.isInteger(db) && db > 0 ? { db } : {}),
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

/** The connection as BullMQ takes it: options (it reads `url` itself) or the Cluster client. */
export function bullConnection(connection: RedisConnection): ConnectionOptions {
  if (connection.kind === 'cluster') return connection.client;
  const { retryStrategy, ...rest } = connection.options;
  const options: BullRedisOptions = retryStrategy ? { ...rest, retryStrategy } : rest;
  if (connection.url !== undefined) options.url = connection.url;
  return options;
}
