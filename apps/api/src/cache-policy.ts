import type { FastifyInstance } from 'fastify';

/**
 * Answers are not stored by any cache unless their route says otherwise: most are one key's own
 * (its jobs, its files) and some carry a secret shown once (a new API key, a key request's key),
 * which a shared proxy or a browser's disk must never keep. Routes whose answers may be kept set
 * their own Cache-Control.
 */
export function storeNothingByDefault(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
