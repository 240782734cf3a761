import { type Logger, pino } from 'pino';
import type { HallmarkConfig } from './config/index.ts';
import { redactSecrets } from './log-redaction.ts';

export type { Logger } from 'pino';

const LOG_BUFFER_BYTES = 8_192;
const LOG_FLUSH_MS = 100;

/** The process's loggers, flushed together by one timer. */
const loggers = new Set<Logger>();
const flushAll = () => {
  for (const logger of loggers) logger.flush();
};

function flushEvery(logger: Logger): void {
  if (loggers.size === 0) setInterval(flushAll, LOG_FLUSH_MS).unref();
  loggers.add(logger);
}

/**
 * The one structured logger: JSON lines on stdout with the service name, so the output of api and
 * worker can be shipped to any log store and filtered by `service`.
 */
export function createLogger(service: string, config: Pick<HallmarkConfig, 'LOG_LEVEL'>): Logger {
  const logger = pino(
    {
      level: config.LOG_LEVEL,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Every line, whatever logged it: an error quoting a signed link must not leak it.
      hooks: { streamWrite: redactSecrets },
    },
    // Asynchronous writes, gathered: lines go out once LOG_BUFFER_BYTES have gathered and at
    // least every LOG_FLUSH_MS, instead of a write per line handed to a libuv thread (each a
    // thread wake-up, and a wake-up of whatever reads the log; apps/api/README.md has what it
    // saved). A line is therefore at most LOG_FLUSH_MS late. Exits go through
    // `logger.flush()`, and pino writes what is left when a process simply ends; a process killed
    // outright can lose its last LOG_FLUSH_MS of lines.
    pino.destination({ dest: 1, sync: false, minLength: LOG_BUFFER_BYTES }),
  );
  flushEvery(logger);
  return logger;
}
