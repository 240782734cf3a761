import type { TraceContext } from '@hallmark/schemas';
import {
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

let on = false;

/** Whether this process traces (set once by `startTracing`): callers skip all span work if not. */
export function tracingOn(): boolean {
  return on;
}

/** Marks tracing as on; only `startTracing` calls it, after registering the SDK. */
export function markTracingOn(): void {
  on = true;
}

const tracer = () => trace.getTracer('hallmark');

/**
 * Runs `work` inside a new span (a child of the active one), ending it with the outcome: an
 * error is recorded on it and thrown on. Without tracing, `work` runs as it is.
 */
export async function traced<T>(
  name: string,
  attributes: Readonly<Record<string, string | number>>,
  work: (span: Span | undefined) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  if (!on) return work(undefined);
  return tracer().startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The active trace as W3C headers, to carry in a queue entry; undefined without tracing. */
export function activeTraceContext(): TraceContext | undefined {
  if (!on) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  const { traceparent, tracestate } = carrier;
  if (traceparent === undefined) return undefined;
  return tracestate === undefined ? { traceparent } : { traceparent, tracestate };
}

/** Runs `work` in the trace a carrier (request headers, a queue entry's context) names. */
export function inTraceOf<T>(
  carrier: Readonly<Record<string, string | string[] | undefined>> | undefined,
  work: () => T,
): T {
  if (!on || carrier === undefined) return work();
  return context.with(propagation.extract(context.active(), carrier), work);
}

export { SpanKind };
