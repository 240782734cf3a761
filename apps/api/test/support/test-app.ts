import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { HallmarkConfig, Logger } from '@hallmark/config';
import { issueApiKey } from '@hallmark/db';
import { PrismaService } from '@hallmark/runtime';
import { createTestEnv } from '@hallmark/runtime/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../src/create-app.ts';

export interface TestApp {
  app: NestFastifyApplication;
  config: HallmarkConfig;
  prisma: PrismaService['client'];
  /** A new API key for a new client: `Authorization` header value. */
  newClient(name?: string): Promise<{ bearer: string; apiKeyId: string; prefix: string }>;
  /** Every row and stored file, to show that a refused request changed nothing. */
  snapshot(): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * The API in-process (requests through `app.inject`) on a private database, Redis prefix and
 * data folder. `configPatch` replaces configuration after the private world is made, e.g. to
 * point the app at a dependency that is down.
 */
export async function startTestApp(
  env: Partial<Record<keyof HallmarkConfig, string>> = {},
  configPatch: Partial<HallmarkConfig> = {},
  logger?: Logger,
): Promise<TestApp> {
  const testEnv = await createTestEnv('api-test', env);
  const config = { ...testEnv.config, ...configPatch };
  const app = await createApp(config, logger ?? testEnv.logger);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  const prisma = app.get(PrismaService).client;
  return {
    app,
    config,
    prisma,
    async newClient(name = 'test client') {
      const key = await issueApiKey(prisma, name);
      return { bearer: `Bearer ${key.plaintext}`, apiKeyId: key.id, prefix: key.prefix };
    },
    async snapshot() {
      const objects = join(config.HALLMARK_DATA_DIR, 'objects');
      const entries = await readdir(objects, { recursive: true, withFileTypes: true }).catch(
        () => [],
      );
      const stored = entries
        .filter((entry) => entry.isFile())
        .map((entry) => join(entry.parentPath, entry.name));
      return {
        files: await prisma.file.findMany({ orderBy: { id: 'asc' } }),
        jobs: await prisma.watermarkJob.findMany({ orderBy: { id: 'asc' } }),
        stored: stored.sort(),
      };
    },
    async close() {
      await app.close();
      await testEnv.dispose();
    },
  };
}
