import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { HallmarkConfig, Logger } from '@hallmark/config';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { clientErrorHandler, MAX_HEADER_BYTES } from './problem/client-error.ts';
import { ProblemException } from './problem/problem.exception.ts';
import { sendProblem } from './problem/send-problem.ts';

// With ADMIN_API_PORT the admin API (`/admin/...`: operators' sign-in, keys, jobs, audit) is
// answered only on a second listener, which a deployment keeps off the internet (compose does not
// publish it): the console's server reaches the API there, and the public listener answers
// `/admin` as if it had no such routes. Both listeners feed the same application; the second
// serves every other route too, so the console needs one address for all it calls.

const THROUGH_ADMIN_LISTENER = Symbol('hallmark.throughAdminListener');

function isAdminPath(url: string): boolean {
  const path = url.split('?')[0] ?? url;
  return path === '/admin' || path.startsWith('/admin/');
}

/** The admin listener of each application, made with it and started by listenForAdmin. */
const adminListeners = new WeakMap<FastifyInstance, Server>();

/**
 * With ADMIN_API_PORT: on the public listener `/admin` is not found, and the admin listener is
 * made (not yet listening) to close with the application.
 */
export function separateAdminListener(
  fastify: FastifyInstance,
  config: HallmarkConfig,
  logger: Logger,
): void {
  if (config.ADMIN_API_PORT === undefined) return;
  fastify.addHook('onRequest', async (request, reply) => {
    const raw = request.raw as IncomingMessage & { [THROUGH_ADMIN_LISTENER]?: true };
    if (!isAdminPath(request.url) || raw[THROUGH_ADMIN_LISTENER] === true) return;
    sendProblem(ProblemException.notFound('No such route.'), request, reply, logger);
    return reply;
  });
  // The public listener's limits, so that this door is no easier to hold open.
  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: 1_000,
    },
    (request, response) => {
      (request as IncomingMessage & { [THROUGH_ADMIN_LISTENER]?: true })[THROUGH_ADMIN_LISTENER] =
        true;
      fastify.routing(request, response);
    },
  );
  server.on('clientError', clientErrorHandler(logger));
  fastify.addHook('onClose', async () => {
    if (!server.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  adminListeners.set(fastify, server);
}

/** Starts the application's admin listener, if it has one (ADMIN_API_PORT); false if not. */
export async function listenForAdmin(
  app: NestFastifyApplication,
  config: HallmarkConfig,
): Promise<boolean> {
  const server = adminListeners.get(app.getHttpAdapter().getInstance());
  if (server === undefined || config.ADMIN_API_PORT === undefined) return false;
  const port = config.ADMIN_API_PORT;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, config.ADMIN_API_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return true;
}
