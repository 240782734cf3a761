import 'reflect-metadata';
import { createLogger, loadConfigOrExit } from '@hallmark/config';
import { NestPinoLogger, runService } from '@hallmark/runtime';
import { startTracing } from '@hallmark/runtime/tracing';
import { NestFactory } from '@nestjs/core';
import { WorkerModule } from './worker.module.ts';

const config = loadConfigOrExit();
const logger = createLogger('worker', config);
const tracing = startTracing(config, 'worker', logger);
await runService(
  logger,
  async () => {
    const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, logger), {
      logger: new NestPinoLogger(logger),
      // Start-up errors reach runService, which logs them before exiting.
      abortOnError: false,
    });
    logger.info({ concurrency: config.WORKER_CONCURRENCY, pid: process.pid }, 'worker ready');
    // Spans still buffered are sent once the running jobs have finished.
    return { close: () => app.close().finally(() => tracing?.shutdown()) };
  },
  config.SHUTDOWN_TIMEOUT_MS,
);
