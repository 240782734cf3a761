// The console's process: Next.js behind a plain Node HTTP server, so that the console knows the
// browser's address (for the API's per-address limits and audit log) and logs one line when it
// listens, like api and worker.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import proxyAddress from '@fastify/proxy-addr';
import {
  consoleForwardingHeaders,
  loadServiceKeys,
  trustProxySetting,
} from '@hallmark/service-keys';
import next from 'next';
import { securityHeaders } from './lib/security-headers.ts';

process.env.NEXT_TELEMETRY_DISABLED = '1';

const host = process.env.HOST || '127.0.0.1';
const port = Number(process.env.ADMIN_PORT || 3001);
if (!Number.isInteger(port) || port < 1 || port > 65_535) {
  console.error(`ADMIN_PORT must be a port number (1-65535), got "${process.env.ADMIN_PORT}"`);
  process.exit(78);
}
// The browser's address is sent to the API with a proof made from the service secret, which the
// console shares with the API (HALLMARK_SECRET, or the data folder's generated one on one machine).
const production = process.env.NODE_ENV === 'production';
if (production && !process.env.HALLMARK_SECRET) {
  console.error("HALLMARK_SECRET is required in production: the same as the API's");
  process.exit(78);
}
const { consoleForwarding } = await loadServiceKeys({
  HALLMARK_SECRET: process.env.HALLMARK_SECRET || undefined,
  HALLMARK_DATA_DIR: process.env.HALLMARK_DATA_DIR || '.data',
});
// Behind a TLS reverse proxy the peer is the proxy: X-Forwarded-For is believed as the API does.
const trustProxy = trustProxySetting(process.env.TRUST_PROXY || 'false');
const trust =
  typeof trustProxy === 'boolean'
    ? () => trustProxy
    : typeof trustProxy === 'function'
      ? trustProxy
      : proxyAddress.compile(trustProxy);
// Where the console's server reaches the API (its admin listener when it has one): read by
// lib/api.ts on every request.
process.env.ADMIN_API_URL ||= process.env.ADMIN_API_PORT
  ? `http://${process.env.ADMIN_API_HOST || '127.0.0.1'}:${process.env.ADMIN_API_PORT}`
  : `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${process.env.PORT || 3000}`;

const app = next({ dev: false, dir: import.meta.dirname, hostname: host, port });
await app.prepare();
const handle = app.getRequestHandler();

const server = createServer((request, response) => {
  // Whatever the browser sent under these names is replaced: only this process knows the peer.
  Object.assign(
    request.headers,
    consoleForwardingHeaders(consoleForwarding, proxyAddress(request, trust)),
  );
  // A fresh nonce: Next.js reads it from the request's policy and marks its scripts with it.
  const headers = securityHeaders(randomBytes(16).toString('base64'), production);
  request.headers['content-security-policy'] = headers['content-security-policy'];
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  handle(request, response).catch((error: unknown) => {
    console.error('admin: request failed', error);
    if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
    response.end('Internal error');
  });
});
server.listen(port, host, () => {
  // One JSON line, like the api's and worker's logs.
  const line = {
    level: 'info',
    time: new Date().toISOString(),
    service: 'admin',
    msg: 'admin listening',
  };
  console.log(
    JSON.stringify({
      ...line,
      url: `http://${host}:${port}`,
      api: process.env.ADMIN_API_URL,
      pid: process.pid,
    }),
  );
});

const stop = () => {
  server.close(() => process.exit(0));
  // Open keep-alive connections would hold close() forever.
  server.closeAllConnections();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
