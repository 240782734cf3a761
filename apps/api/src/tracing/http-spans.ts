import {
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const spans = new WeakMap<FastifyRequest, Span>();

/**
 * A server span per request, named by method and route template, in the trace the caller's
 * `traceparent` names (or a new one); everything the request does runs inside it, so a job it
 * queues carries it on to the worker. Registered only when the process traces.
 */
export function traceRequests(fastify: FastifyInstance): void {
  const tracer = trace.getTracer('hallmark');
  fastify.addHook('onRequest', (request, _reply, done) => {
    // The global W3C propagator reads `traceparent` and `tracestate` from the headers.
    const parent = propagation.extract(context.active(), request.headers);
    const route = request.routeOptions.url ?? 'unmatched';
    const span = tracer.startSpan(
      `${request.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': request.method, 'http.route': route },
      },
      parent,
    );
    spans.set(request, span);
    context.with(trace.setSpan(parent, span), done);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const span = spans.get(request);
    if (span !== undefined) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });
}
