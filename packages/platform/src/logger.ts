import { type Logger, pino } from 'pino';
import type { HallmarkConfig } from './config/index.ts';

export type { Logger } from 'pino';

/**
 * The one structured logger: JSON lines on stdout with the service name, so the output of api and
 * worker can be shipped to any log store and filtered by `service`.
 */
export function createLogger(service: string, config: Pick<HallmarkConfig, 'LOG_LEVEL'>): Logger {
  return pino({
    level: config.LOG_LEVEL,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
}
