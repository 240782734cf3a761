// The console's process: Next.js behind a plain Node HTTP server, so that the console knows the
// browser's address (for the audit log) and logs one line when it listens, like api and worker.
import { createServer } from 'node:http';
import next from 'next';
import { CLIENT_ADDRESS_HEADER } from './lib/client-address.ts';

process.env.NEXT_TELEMETRY_DISABLED = '1';

const host = process.env.HOST || '127.0.0.1';
const port = Number(process.env.ADMIN_PORT || 3001);
if (!Number.isInteger(port) || port < 1 || port > 65_535) {
  console.error(`ADMIN_PORT must be a port number (1-65535), got "${process.env.ADMIN_PORT}"`);
  process.exit(78);
}
// Where the console's server reaches the API: read by lib/api.ts on every request.
process.env.ADMIN_API_URL ||= `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${process.env.PORT || 3000}`;

const app = next({ dev: false, dir: import.meta.dirname, hostname: host, port });
await app.prepare();
const handle = app.getRequestHandler();

const server = createServer((request, response) => {
  // Whatever the browser sent under this name is replaced: only this process knows the peer.
  request.headers[CLIENT_ADDRESS_HEADER] = request.socket.remoteAddress ?? '';
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
    JSON.stringify({ ...line, url: `http://${host}:${port}`, api: process.env.ADMIN_API_URL }),
  );
});

const stop = () => {
  server.close(() => process.exit(0));
  // Open keep-alive connections would hold close() forever.
  server.closeAllConnections();
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
