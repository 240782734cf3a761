import type { Logger } from '@hallmark/config';
import type { FastifyInstance } from 'fastify';
import type { AuthenticatedRequest } from '../auth/client.ts';
import { problemReply } from '../problem/send-problem.ts';

/**
 * The other half of AuthGuard's concurrent count for reads: the answer waits for the count,
 * takes its RateLimit headers, and is replaced by the 429 when the key is over its limit (the
 * 429 also wins over the handler's own error, which reaches this hook as a problem reply).
 *
 * A Fastify onSend hook rather than a Nest interceptor: it sees every answer, returned or sent,
 * error or not, and costs no observable pipeline per request (Nest runs a request through RxJS
 * only when some interceptor applies; on `GET /watermark/{requestId}` that machinery took about a
 * tenth of the API's CPU).
 */
export function settleRateLimits(fastify: FastifyInstance, logger: Logger): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    const pending = (request as AuthenticatedRequest).pendingRateLimit;
    if (pending === undefined) return payload;
    try {
      reply.headers(await pending);
      return payload;
    } catch (error) {
      return JSON.stringify(problemReply(error, request, reply, logger));
    }
  });
}
