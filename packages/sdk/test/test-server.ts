import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the server saw it. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The body as sent, for binary bodies. */
  readonly bytes: Buffer;
}

/** What the server answers: a status, a content type and a body (objects are sent as JSON). */
export interface CannedResponse {
  readonly status: number;
  readonly contentType?: string;
  readonly body?: unknown;
  /** Extra response headers, e.g. `Retry-After`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A real HTTP server on an ephemeral port, so the client is tested through the platform's own
 * `fetch` rather than a mock of it. It answers each request with the next canned response.
 */
export class TestServer {
  readonly requests: RecordedRequest[] = [];
  readonly #responses: CannedResponse[] = [];
  readonly #server: Server;

  private constructor() {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.requests.push({
          method: request.method ?? '',
          url: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          bytes: Buffer.concat(chunks),
        });
        const canned = this.#responses.shift() ?? { status: 500, body: 'no canned response' };
        const text =
          typeof canned.body === 'string' || canned.body === undefined
            ? (canned.body ?? '')
            : JSON.stringify(canned.body);
        response.writeHead(canned.status, {
          'content-type': canned.contentType ?? 'application/json',
          ...canned.headers,
        });
        response.end(text);
      });
    });
  }

  static async start(): Promise<TestServer> {
    const server = new TestServer();
    await new Promise<void>((resolve) => server.#server.listen(0, '127.0.0.1', resolve));
    return server;
  }

  get url(): string {
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  answer(...responses: CannedResponse[]): void {
    this.#responses.push(...responses);
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      this.#server.close((error) => (error ? reject(error) : resolve())),
    );
  }
}
