import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '@hallmark/config';

/** More deaths than this within a minute is a failing deployment, not a crash now and then. */
const DEATHS_PER_MINUTE = 5;

/**
 * API_PROCESSES > 1: this process only supervises. It forks that many API processes, which share
 * the listening port (Node's cluster hands each new connection to one of them in turn), and keeps
 * them alive. The processes are stateless (every state lives in PostgreSQL and Redis), so any of
 * them can answer any request. A process that dies is replaced; one that cannot start (a bad
 * setting, a port in use), or more than DEATHS_PER_MINUTE deaths in a minute, stops the whole API
 * with exit code 1, so a broken deployment fails loudly instead of restarting forever. SIGTERM/SIGINT are passed on and
 * the supervisor exits once every process has finished its requests (each within
 * SHUTDOWN_TIMEOUT_MS).
 */
export function superviseApiProcesses(count: number, logger: Logger): void {
  const listening = new Set<number>();
  const deaths: number[] = [];
  let stopping = false;
  let exitCode = 0;

  const fork = () => {
    const worker = cluster.fork();
    worker.on('listening', () => listening.add(worker.id));
  };

  // Always SIGTERM: after Ctrl-C the processes already have the terminal's SIGINT, and a second
  // SIGINT would cut their graceful stop short.
  const stopAll = (code: number, why: string) => {
    exitCode = Math.max(exitCode, code);
    if (stopping) return;
    stopping = true;
    logger.info({ why }, 'stopping the api processes');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };

  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
    const started = listening.delete(worker.id);
    const now = Date.now();
    deaths.push(now);
    while ((deaths[0] ?? now) < now - 60_000) deaths.shift();
    if (stopping) {
      if (code !== 0 && code !== null) exitCode = Math.max(exitCode, code);
    } else if (!started || deaths.length > DEATHS_PER_MINUTE) {
      logger.fatal(
        { pid: worker.process.pid, code, signal },
        started ? 'api processes keep dying' : 'an api process failed to start',
      );
      stopAll(1, 'a failing api process');
    } else {
      logger.error({ pid: worker.process.pid, code, signal }, 'an api process died; replacing it');
      fork();
    }
    if (Object.keys(cluster.workers ?? {}).length === 0 && stopping) {
      logger.flush(() => process.exit(exitCode));
    }
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => stopAll(0, signal));
  }
  logger.info({ processes: count }, 'starting api processes');
  for (let i = 0; i < count; i++) fork();
}
