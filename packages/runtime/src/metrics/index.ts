// Prometheus metrics of the api and the worker (`@hallmark/runtime/metrics`): the instruments,
// the scrape server, and the sources it serves.
import cluster from 'node:cluster';
import { AggregatorRegistry, collectDefaultMetrics, register } from 'prom-client';
import type { MetricsSource } from './metrics-server.ts';

export * from './instruments.ts';
export * from './metrics-server.ts';

let defaultsCollected = false;

/**
 * This process's registry, with Node's own metrics (event-loop lag, heap, GC) added once. In a
 * process forked by the API's supervisor it also answers the supervisor's requests for them:
 * prom-client listens for those only once an `AggregatorRegistry` was made in the process.
 */
export function processMetrics(): MetricsSource {
  if (!defaultsCollected) {
    collectDefaultMetrics();
    if (cluster.isWorker) new AggregatorRegistry();
    defaultsCollected = true;
  }
  return register;
}

/**
 * For the API's supervisor (API_PROCESSES > 1): one answer for all its processes, gathered over
 * the cluster's channel from each process's registry and summed (gauges marked otherwise).
 */
export function clusterMetrics(): MetricsSource {
  const aggregator = new AggregatorRegistry();
  return { contentType: aggregator.contentType, metrics: () => aggregator.clusterMetrics() };
}
