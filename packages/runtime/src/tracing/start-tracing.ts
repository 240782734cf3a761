import type { HallmarkConfig, Logger } from '@hallmark/config';
import { recordEventTraces } from '@hallmark/db';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { activeTraceContext, markTracingOn } from './spans.ts';

export interface Tracing {
  /** Sends what is still buffered and stops: call it before the process exits. */
  shutdown(): Promise<void>;
}

/**
 * Registers OpenTelemetry for this process when OTEL_EXPORTER_OTLP_ENDPOINT is set: spans are
 * batched and sent over OTLP/HTTP to `<endpoint>/v1/traces`, contexts follow async calls, and
 * W3C `traceparent` headers are read and written. Unset: returns null and registers nothing.
 */
export function startTracing(
  config: Pick<
    HallmarkConfig,
    | 'OTEL_EXPORTER_OTLP_ENDPOINT'
    | 'OTEL_SERVICE_NAME'
    | 'OTEL_BSP_SCHEDULE_DELAY'
    | 'OTEL_TRACES_SAMPLER_ARG'
  >,
  service: 'api' | 'worker',
  logger: Logger,
): Tracing | null {
  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (endpoint === undefined) return null;
  const provider = new TracerProvider({
    // A share of new traces is kept; a caller's or a queued run's trace follows its parent's choice.
    sampler: new ParentBasedSampler({
      root: new TraceIdRatioBasedSampler(config.OTEL_TRACES_SAMPLER_ARG),
    }),
    resource: resourceFromAttributes({
      'service.name': `${config.OTEL_SERVICE_NAME}-${service}`,
    }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }),
        scheduledDelayMillis: config.OTEL_BSP_SCHEDULE_DELAY,
      }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  markTracingOn();
  // A webhook event records the trace that caused it, so its deliveries continue that trace.
  recordEventTraces(() => activeTraceContext()?.traceparent);
  logger.info({ endpoint }, 'tracing: spans go to the OTLP endpoint');
  return { shutdown: () => provider.shutdown() };
}
