import 'reflect-metadata';
import { type HallmarkConfig, type Logger, NestPinoLogger } from '@hallmark/platform';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.ts';
import { registerDocsPage } from './docs/register-docs-page.ts';

/** Builds the API application (not yet listening): used by main.ts and by the tests. */
export async function createApp(
  config: HallmarkConfig,
  logger: Logger,
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({ loggerInstance: logger.child({ component: 'http' }) });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, logger),
    adapter,
    { logger: new NestPinoLogger(logger) },
  );
  await registerDocsPage(app);
  return app;
}
