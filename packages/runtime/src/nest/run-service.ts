import type { Logger } from '@hallmark/config';
import { exitGracefullyOnSignals } from './graceful-shutdown.ts';

interface Closable {
  close(): Promise<void>;
}

/**
 * The life of a service process: start it, stop it gracefully on a signal, and when anything
 * fails at start or later escapes every handler, log it as one fatal JSON line, flush the (async)
 * log and exit 1, so a crash always says why.
 */
export async function runService(
  logger: Logger,
  start: () => Promise<Closable>,
  shutdownTimeoutMs: number,
): Promise<void> {
  const die = (what: string) => (error: unknown) => {
    logger.fatal({ err: error }, what);
    logger.flush(() => process.exit(1));
  };
  process.on('uncaughtException', die('uncaught exception'));
  process.on('unhandledRejection', die('unhandled rejection'));
  try {
    const app = await start();
    exitGracefullyOnSignals(app, logger, shutdownTimeoutMs);
  } catch (error) {
    die('failed to start')(error);
  }
}
