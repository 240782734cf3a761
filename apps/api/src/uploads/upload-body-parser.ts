import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';

/** Fastify's own error for a body type no parser takes; the problem layer maps it to 415. */
class UnsupportedMediaType extends Error {
  readonly code = 'FST_ERR_CTP_INVALID_MEDIA_TYPE';
  readonly statusCode = 415;
}

/** Routes whose body is an image, streamed to the handler, which checks it itself. */
const IMAGE_BODY_ROUTES = new Set([
  '/verify/file',
  '/matches/byContent',
  '/public/verify',
  '/admin/verifications',
]);

/**
 * The parser for every Content-Type but JSON. Upload bodies (PUT to a storage link) and the
 * image bodies of the verification routes reach the handler as a stream, whatever their
 * Content-Type: the handler checks it and answers itself. Any other route takes JSON only, so
 * another type is a 415; a request that matched no route goes on to its 404.
 */
export function passUploadBodies(
  request: FastifyRequest,
  payload: IncomingMessage,
  done: (error: Error | null, body?: unknown) => void,
): void {
  const route = request.routeOptions.url;
  if (route === undefined || route.startsWith('/storage/') || IMAGE_BODY_ROUTES.has(route)) {
    done(null, payload);
    return;
  }
  done(new UnsupportedMediaType('Unsupported Media Type'));
}
