import 'reflect-metadata';
import { type HallmarkConfig, type Logger, NestPinoLogger } from '@hallmark/platform';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccessLog } from './access-log.ts';
import { AppModule } from './app.module.ts';
import { registerDocsPage } from './docs/register-docs-page.ts';

/** Builds the API application (not yet listening): used by main.ts and by the tests. */
export async function createApp(
  config: HallmarkConfig,
  logger: Logger,
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    loggerInstance: logger.child({ component: 'http' }),
    logController: new AccessLog(),
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, logger),
    adapter,
    { logger: new NestPinoLogger(logger), abortOnError: false },
  );
  // Upload bodies (PUT to a storage link) reach the handler as a stream, whatever their
  // Content-Type: the handler compares it with the declared type and answers 400 itself.
  app
    .getHttpAdapter()
    .getInstance()
    .addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  await registerDocsPage(app);
  return app;
}
