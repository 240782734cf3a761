import type { HallmarkConfig } from '@hallmark/platform';
import { createTestEnv } from '@hallmark/platform/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../src/create-app.ts';

export interface TestApp {
  app: NestFastifyApplication;
  close(): Promise<void>;
}

/**
 * The API in-process (requests through `app.inject`) on a private database and Redis prefix.
 * `configPatch` replaces configuration after the private world is made, e.g. to point the app at
 * a dependency that is down.
 */
export async function startTestApp(
  env: Partial<Record<keyof HallmarkConfig, string>> = {},
  configPatch: Partial<HallmarkConfig> = {},
): Promise<TestApp> {
  const testEnv = await createTestEnv('api-test', env);
  const app = await createApp({ ...testEnv.config, ...configPatch }, testEnv.logger);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return {
    app,
    async close() {
      await app.close();
      await testEnv.dispose();
    },
  };
}
