import 'reflect-metadata';
import { createLogger, loadConfigOrExit } from '@hallmark/config';
import { NestPinoLogger, runService } from '@hallmark/runtime';
import { NestFactory } from '@nestjs/core';
import { WorkerModule } from './worker.module.ts';

const config = loadConfigOrExit();
const logger = createLogger('worker', config);
await runService(
  logger,
  async () => {
    const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, logger), {
      logger: new NestPinoLogger(logger),
      // Start-up errors reach runService, which logs them before exiting.
      abortOnError: false,
    });
    logger.info({ concurrency: config.WORKER_CONCURRENCY, pid: process.pid }, 'worker ready');
    return app;
  },
  config.SHUTDOWN_TIMEOUT_MS,
);
