import { type Logger, pino } from 'pino';
import type { HallmarkConfig } from './config/index.ts';
import { redactSecrets } from './log-redaction.ts';

export type { Logger } from 'pino';

/**
 * The one structured logger: JSON lines on stdout with the service name, so the output of api and
 * worker can be shipped to any log store and filtered by `service`.
 */
export function createLogger(service: string, config: Pick<HallmarkConfig, 'LOG_LEVEL'>): Logger {
  return pino(
    {
      level: config.LOG_LEVEL,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Every line, whatever logged it: an error quoting a signed link must not leak it.
      hooks: { streamWrite: redactSecrets },
    },
    // Asynchronous writes: lines logged in the same tick go out in one write instead of one
    // blocking syscall each (the access log made that the API's largest cost per request).
    // Call `logger.flush()` before exiting.
    pino.destination({ dest: 1, sync: false }),
  );
}
