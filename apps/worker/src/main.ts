import 'reflect-metadata';
import {
  createLogger,
  exitGracefullyOnSignals,
  loadConfigOrExit,
  NestPinoLogger,
} from '@hallmark/platform';
import { NestFactory } from '@nestjs/core';
import { WorkerModule } from './worker.module.ts';

const config = loadConfigOrExit();
const logger = createLogger('worker', config);
const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, logger), {
  logger: new NestPinoLogger(logger),
});
logger.info({ concurrency: config.WORKER_CONCURRENCY }, 'worker ready');

exitGracefullyOnSignals(app, logger, config.SHUTDOWN_TIMEOUT_MS);
