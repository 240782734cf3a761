export {
  ConfigError,
  configSchema,
  type HallmarkConfig,
  loadConfig,
  loadConfigOrExit,
  publicBaseUrl,
} from './config/index.ts';
export { createLogger, type Logger } from './logger.ts';
export { CoreModule } from './nest/core.module.ts';
export { exitGracefullyOnSignals } from './nest/graceful-shutdown.ts';
export { NestPinoLogger } from './nest/nest-logger.ts';
export { PrismaService } from './nest/prisma.service.ts';
export { CONFIG, LOGGER } from './nest/tokens.ts';
