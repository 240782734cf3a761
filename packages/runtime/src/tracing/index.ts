// Traces over OpenTelemetry (`@hallmark/runtime/tracing`): on only when the deployment names an
// OTLP endpoint; otherwise nothing here is loaded past this file's checks, and no span is made.
export { activeTraceContext, inTraceOf, SpanKind, traced, tracingOn } from './spans.ts';
export { startTracing, type Tracing } from './start-tracing.ts';
