// Whom a request comes from, for per-address limits and the audit log. Behind the console, every
// browser reaches the API from the console's address; the console says which browser it acts for
// and proves it with a key from the service secret (see @hallmark/service-keys). Anyone else's
// claim is ignored: the address is the socket's, or X-Forwarded-For as TRUST_PROXY allows.
import type { Logger } from '@hallmark/config';
import {
  CONSOLE_CLIENT_HEADER,
  CONSOLE_PROOF_HEADER,
  forwardedConsoleClient,
} from '@hallmark/service-keys';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const consoleClients = new WeakMap<FastifyRequest['raw'], string>();

export function believeConsoleForwarding(
  fastify: FastifyInstance,
  key: Uint8Array,
  logger: Logger,
): void {
  let warned = false;
  fastify.addHook('onRequest', (request, _reply, done) => {
    const address = single(request.headers[CONSOLE_CLIENT_HEADER]);
    const proof = single(request.headers[CONSOLE_PROOF_HEADER]);
    if (address !== undefined || proof !== undefined) {
      const client = forwardedConsoleClient(key, address, proof);
      if (client !== null) consoleClients.set(request.raw, client);
      else if (!warned) {
        // Once: a console with another secret (or a forger) would otherwise fill the log.
        warned = true;
        logger.warn(
          { from: request.ip },
          'a console client address came without a valid proof: is HALLMARK_SECRET the same for console and API?',
        );
      }
    }
    done();
  });
}

/** The client's address: the browser's behind the console, otherwise the request's own. */
export function clientAddress(request: FastifyRequest): string {
  return consoleClients.get(request.raw) ?? request.ip;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? undefined : value;
}
