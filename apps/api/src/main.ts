import cluster from 'node:cluster';
import { createLogger, loadConfigOrExit } from '@hallmark/config';
import { runService } from '@hallmark/runtime';
import { processMetrics } from '@hallmark/runtime/metrics';
import { startTracing } from '@hallmark/runtime/tracing';
import { serveApiMetrics } from './metrics/metrics-endpoint.ts';
import { superviseApiProcesses } from './processes/supervise.ts';
import { dropWorkerSecrets } from './worker-secrets.ts';

const loaded = loadConfigOrExit();
const logger = createLogger('api', loaded);
const config = dropWorkerSecrets(loaded, process.env, logger);
if (cluster.isPrimary && config.API_PROCESSES > 1) {
  superviseApiProcesses(config.API_PROCESSES, logger);
  await serveApiMetrics(config, logger, 'cluster');
} else {
  // Only the processes that serve load the application, and trace. A process forked by the
  // supervisor answers its requests for metrics from here on, before the application is built.
  if (config.METRICS_PORT !== undefined) processMetrics();
  const tracing = startTracing(config, 'api', logger);
  const { createApp } = await import('./create-app.ts');
  const { listenForAdmin } = await import('./admin-listener.ts');
  await runService(
    logger,
    async () => {
      const app = await createApp(config, logger);
      await app.listen(config.PORT, config.HOST);
      if (cluster.isPrimary) await serveApiMetrics(config, logger, 'process');
      logger.info({ url: await app.getUrl(), pid: process.pid }, 'api listening');
      if (await listenForAdmin(app, config)) {
        logger.info(
          { host: config.ADMIN_API_HOST, port: config.ADMIN_API_PORT },
          'admin api listening',
        );
      }
      // Spans still buffered are sent once the last request has been answered.
      return { close: () => app.close().finally(() => tracing?.shutdown()) };
    },
    config.SHUTDOWN_TIMEOUT_MS,
  );
}
