import type { Logger } from '@hallmark/config';
import type { LoggerService } from '@nestjs/common';

/** Routes Nest's own log lines (module start-up, routes, shutdown) into the structured logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  /**
   * Nest's own progress (modules initialised, each route mapped, application started) is noise
   * in an operator's log: debug, so LOG_LEVEL=debug brings it back.
   */
  log(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }

  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }

  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }

  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }

  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
