import { randomBytes } from 'node:crypto';
import { createTestDatabase } from '@hallmark/db/testing';
import { Redis } from 'ioredis';
import { type HallmarkConfig, loadConfig } from '../config/index.ts';
import { createLogger } from '../logger.ts';

/**
 * A private world for one test file: its own migrated database and its own Redis key prefix,
 * both removed by `dispose`.
 */
export async function createTestEnv(
  service: string,
  overrides: Partial<Record<keyof HallmarkConfig, string>> = {},
) {
  const database = await createTestDatabase();
  const redisPrefix = `hallmark-test-${randomBytes(6).toString('hex')}`;
  const env = {
    DATABASE_URL: database.url,
    REDIS_PREFIX: redisPrefix,
    LOG_LEVEL: 'silent',
    ...overrides,
  };
  const config = loadConfig(env);
  return {
    env,
    config,
    logger: createLogger(service, config),
    async dispose() {
      await deleteRedisPrefix(config.REDIS_URL, redisPrefix);
      await database.drop();
    },
  };
}

async function deleteRedisPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    // Tests that point REDIS_URL at a closed port have nothing to clean up.
    if (
      !(await redis.connect().then(
        () => true,
        () => false,
      ))
    )
      return;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
