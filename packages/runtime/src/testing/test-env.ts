import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type HallmarkConfig, loadConfig } from '@hallmark/config';
import { createTestDatabase } from '@hallmark/db/testing';
import { Redis } from 'ioredis';

/**
 * A private world for one test file: its own migrated database, Redis key prefix and data
 * folder (stored files, secrets), all removed by `dispose`.
 */
export async function createTestEnv(
  service: string,
  overrides: Partial<Record<keyof HallmarkConfig, string>> = {},
) {
  const database = await createTestDatabase();
  const redisPrefix = `hallmark-test-${randomBytes(6).toString('hex')}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'hallmark-test-'));
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    REDIS_PREFIX: redisPrefix,
    HALLMARK_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    // One API process per test service: tests look at behaviour; process.test.ts covers several.
    API_PROCESSES: '1',
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
      await rm(dataDir, { recursive: true, force: true });
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
