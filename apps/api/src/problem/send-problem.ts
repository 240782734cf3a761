import type { Logger } from '@hallmark/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type RenderedProblem, toProblem } from './to-problem.ts';

/**
 * Answers `error` as RFC 9457 problem+json: for the Nest exception filter and for the errors
 * Fastify's router raises before any Nest handler or filter exists for the request.
 */
export function sendProblem(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  logger: Logger,
): void {
  void reply.send(problemReply(error, request, reply, logger));
}

/**
 * Sets the reply's status and headers for `error` and returns the problem body, for a caller that
 * sends it (sendProblem) or hands it on as the payload of a reply already on its way (an onSend
 * hook).
 */
export function problemReply(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  logger: Logger,
): RenderedProblem['body'] {
  // The path only: the query of a storage link holds its signature.
  const path = request.url.split('?')[0] ?? request.url;
  const { body, headers } = toProblem(error, path);
  if (body.status >= 500) {
    logger.error({ err: error, method: request.method, path }, 'request failed');
  }
  reply
    .status(body.status)
    .headers(headers)
    .header('content-type', 'application/problem+json; charset=utf-8');
  return body;
}
