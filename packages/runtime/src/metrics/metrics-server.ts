import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Logger } from '@hallmark/config';

/** What a scrape answers: the exposition text and its content type. */
export interface MetricsSource {
  readonly contentType: string;
  metrics(): Promise<string>;
}

export interface MetricsServerOptions {
  readonly port: number;
  readonly host: string;
  /** Asked as `Authorization: Bearer <token>` when set. */
  readonly token: string | undefined;
  readonly source: MetricsSource;
  readonly logger: Logger;
}

/**
 * `GET /metrics` on a port of its own, never the public one: Prometheus scrapes it from inside
 * the deployment. Anything else is a 404; a missing or wrong token a 401.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<Server> {
  const { source, token, logger } = options;
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (token !== undefined && !bearerMatches(request.headers.authorization, token)) {
      response
        .writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' })
        .end('a bearer token is required (METRICS_TOKEN)\n');
      return;
    }
    source.metrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': source.contentType }).end(text);
      },
      (error: unknown) => {
        logger.error({ err: (error as Error).message }, 'metrics could not be gathered');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  logger.info({ port: options.port, host: options.host }, 'metrics on /metrics');
  return server;
}

export async function stopMetricsServer(server: Server): Promise<void> {
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
