import type { Logger } from '@hallmark/config';

interface Closable {
  close(): Promise<void>;
}

/**
 * SIGTERM/SIGINT close the application (api: stop accepting, finish in-flight requests; worker:
 * take no new job, finish the running ones) and exit 0. Past `timeoutMs` the process exits 1
 * anyway; a worker's unfinished job then loses its lock and BullMQ hands it back to the queue,
 * so it is returned, not lost.
 */
export function exitGracefullyOnSignals(app: Closable, logger: Logger, timeoutMs: number): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing current work');
    const deadline = setTimeout(() => {
      logger.warn({ timeoutMs }, 'work still running at the deadline; exiting anyway');
      logger.flush(() => process.exit(1));
    }, timeoutMs);
    deadline.unref();
    await app.close();
    logger.info('stopped');
    logger.flush(() => process.exit(0));
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, (received) => {
      stop(received).catch((error: unknown) => {
        logger.error({ err: error }, 'did not stop cleanly');
        logger.flush(() => process.exit(1));
      });
    });
  }
}
