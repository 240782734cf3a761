import { httpRequestDuration } from '@hallmark/runtime/metrics';
import type { FastifyInstance } from 'fastify';

/** Methods kept as they are; anything else a client invents counts as `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Times every answer by route template (`/watermark/:requestId`, never the path itself, so a
 * series is per route, not per id), method and status. Requests no route matched share one
 * `unmatched` series.
 */
export function measureRequests(fastify: FastifyInstance): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    httpRequestDuration.observe(
      {
        route: request.routeOptions.url ?? 'unmatched',
        method: METHODS.has(request.method) ? request.method : 'other',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
