import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves a fetch-style handler on 127.0.0.1 with a random port, so fakes are written against
 * `Request`/`Response` (which also parse multipart bodies the way a real server sees them).
 */
export async function serve(handler: (request: Request) => Promise<Response>): Promise<TestServer> {
  const server = createServer((incoming, outgoing) => {
    handle(handler, incoming, outgoing).catch((error: unknown) => {
      outgoing.statusCode = 500;
      outgoing.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => closeServer(server) };
}

/**
 * A URL on which nothing listens: port 2, a privileged port below the range the system hands out
 * (fetch will not even try port 1). A port freed a moment ago could be taken by another suite
 * running on the same machine.
 */
export async function deadUrl(): Promise<string> {
  return 'http://127.0.0.1:2';
}

async function handle(
  handler: (request: Request) => Promise<Response>,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  const method = incoming.method ?? 'GET';
  const request = new Request(`http://${incoming.headers.host}${incoming.url}`, {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' ? null : Buffer.concat(chunks),
  });
  const response = await handler(request);
  outgoing.statusCode = response.status;
  response.headers.forEach((value, name) => {
    outgoing.setHeader(name, value);
  });
  outgoing.end(Buffer.from(await response.arrayBuffer()));
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.closeAllConnections();
    server.close((error) => (error ? reject(error) : resolve()));
  });
}
