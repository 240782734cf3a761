import type { Server } from 'node:http';
import type { HallmarkConfig, Logger } from '@hallmark/config';
import {
  clusterMetrics,
  type MetricsSource,
  processMetrics,
  startMetricsServer,
} from '@hallmark/runtime/metrics';

/**
 * `GET /metrics` on METRICS_PORT, when set: served by the supervisor for all its processes
 * (`clusterMetrics`), or by the one API process itself. The server does not hold the process
 * open: it ends with the API.
 */
export async function serveApiMetrics(
  config: HallmarkConfig,
  logger: Logger,
  source: 'cluster' | 'process',
): Promise<Server | undefined> {
  if (config.METRICS_PORT === undefined) return undefined;
  const metrics: MetricsSource = source === 'cluster' ? clusterMetrics() : processMetrics();
  const server = await startMetricsServer({
    port: config.METRICS_PORT,
    host: config.HOST,
    token: config.METRICS_TOKEN,
    source: metrics,
    logger,
  });
  server.unref();
  return server;
}
