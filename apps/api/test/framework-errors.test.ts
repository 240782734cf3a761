import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, startService } from './support/service.ts';

const PROBLEMS = 'https://hallmark.dev/problems/';
// Sent in queries and bodies; no answer may repeat them.
const SIGNATURE = 'c2VjcmV0LXNpZ25hdHVyZQ';
const TOKEN = 'hm_abcdefgh_secretsecretsecret';
const LEAKS = ['signature', SIGNATURE, 'token=', TOKEN, 'expires='];

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A request through Node's client: for inputs it agrees to send. */
function send(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(
            Object.entries(res.headers).map(([name, value]) => [name, String(value)]),
          ),
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Bytes straight onto a socket, for what Node's client refuses to send (a NUL in a header); the
 * server's answer is read until it closes the connection.
 */
function sendRaw(baseUrl: string, bytes: string): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes, 'latin1'));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(parseRawResponse(Buffer.concat(chunks))));
  });
}

/** An HTTP/1.1 response as read off a socket. */
function parseRawResponse(bytes: Buffer): RawResponse {
  const [head = '', body = ''] = bytes.toString('utf8').split('\r\n\r\n', 2);
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  return {
    status: Number(statusLine.split(' ')[1]),
    headers: Object.fromEntries(
      headerLines.map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
      }),
    ),
    body,
  };
}

function expectProblem(res: RawResponse, status: number, slug: string): Record<string, unknown> {
  expect(res.status, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const problem = JSON.parse(res.body) as Record<string, unknown>;
  expect(problem).toMatchObject({ type: `${PROBLEMS}${slug}`, status });
  expect(typeof problem.title).toBe('string');
  for (const leak of LEAKS) expect(res.body).not.toContain(leak);
  return problem;
}

describe('errors raised before routing or outside the handlers are problem+json', () => {
  let service: RunningService;
  let base: string;

  beforeAll(async () => {
    service = await startService({ UPLOAD_MAX_BYTES: '1000000' });
    base = service.baseUrl;
  });

  afterAll(async () => {
    await service?.close();
  });

  it('400 bad-url for a malformed percent-escape in the path, without echoing the query', async () => {
    for (const path of [
      `/watermark/%zz?signature=${SIGNATURE}`,
      `/storage/uploads/0b0e0c52/%zz.jpg?expires=4102444800&signature=${SIGNATURE}`,
      `/gateway/ipfs/%zz?token=${TOKEN}`,
      // Valid escape syntax, but not UTF-8 once decoded.
      `/watermark/%c3%28?signature=${SIGNATURE}`,
    ]) {
      const res = await send(base, 'GET', path);
      const problem = expectProblem(res, 400, 'bad-url');
      expect(problem.instance).toBe(path.split('?')[0]);
    }
    const upload = await send(
      base,
      'PUT',
      `/storage/uploads/0b0e0c52/%zz.jpg?expires=4102444800&signature=${SIGNATURE}`,
      { 'content-type': 'image/jpeg' },
      Buffer.from([0xff, 0xd8, 0xff]),
    );
    expectProblem(upload, 400, 'bad-url');
  });

  it('400 malformed-request for a NUL or control byte in a header value', async () => {
    for (const value of ['a\u0000b', 'a\u0001b', 'a\u007fb']) {
      const res = await sendRaw(
        base,
        `GET /health?signature=${SIGNATURE} HTTP/1.1\r\nHost: x\r\nX-Probe: ${value}\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`,
      );
      expectProblem(res, 400, 'malformed-request');
    }
  });

  it('431 header-fields-too-large for headers over 16 KiB; 16 KiB less a little still passes', async () => {
    const res = await send(base, 'GET', `/health?signature=${SIGNATURE}`, {
      'x-big': 'a'.repeat(17 * 1024),
    });
    expectProblem(res, 431, 'header-fields-too-large');
    const fits = await send(base, 'GET', '/health', { 'x-big': 'a'.repeat(15 * 1024) });
    expect(fits.status).toBe(200);
  });

  it('413 payload-too-large for a JSON body over the limit, answered once the body is read (never a reset)', async () => {
    // Larger than loopback's socket buffers hold: a server that answers and closes without
    // reading it resets the connection under the client still writing (EPIPE or ECONNRESET, the
    // answer unread), as under load it did for 2 MB.
    const padding = 'a'.repeat(12 * 1024 * 1024);
    const json = JSON.stringify({ fileId: 'x', padding });
    const head = `POST /watermark?signature=${SIGNATURE} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n`;
    // Refused from Content-Length before a byte is read, and while reading a chunked body.
    const declared = await sendRaw(base, `${head}Content-Length: ${json.length}\r\n\r\n${json}`);
    expectProblem(declared, 413, 'payload-too-large');
    const chunked = await sendRaw(
      base,
      `${head}Transfer-Encoding: chunked\r\n\r\n${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`,
    );
    expectProblem(chunked, 413, 'payload-too-large');
  });

  it('413 payload-too-large for an upload over the limit, answered once the body is read', async () => {
    const { apiKey } = await service.newClient();
    const claimed = await fetch(`${base}/claim/file-upload-link`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ contentType: 'image/jpeg', fileName: 'big.jpg' }),
    });
    const { uploadLink } = (await claimed.json()) as { uploadLink: string };
    const link = new URL(uploadLink);
    // A JPEG's first bytes, then far more than UPLOAD_MAX_BYTES and than the socket buffers hold.
    const body = `\xff\xd8\xff\xe0${'a'.repeat(12 * 1024 * 1024)}`;
    const res = await sendRaw(
      base,
      `PUT ${link.pathname}${link.search} HTTP/1.1\r\nHost: x\r\nContent-Type: image/jpeg\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expectProblem(res, 413, 'payload-too-large');
  });

  it('415 unsupported-media-type for a body that is not JSON on a JSON route', async () => {
    for (const contentType of [
      'text/plain',
      'application/xml',
      'application/x-www-form-urlencoded',
    ]) {
      const res = await send(
        base,
        'POST',
        `/watermark?token=${TOKEN}`,
        { 'content-type': contentType, authorization: `Bearer ${TOKEN}` },
        `token=${TOKEN}`,
      );
      expectProblem(res, 415, 'unsupported-media-type');
    }
  });

  it('400 validation-error for malformed JSON, without quoting the body', async () => {
    const res = await send(
      base,
      'POST',
      '/watermark',
      { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      `{"fileId": "${TOKEN}", signature`,
    );
    expectProblem(res, 400, 'validation-error');
  });

  it('404 not-found for an unknown route and for a method a known path does not serve', async () => {
    for (const [method, path] of [
      ['GET', `/no-such-route?signature=${SIGNATURE}&token=${TOKEN}`],
      ['DELETE', `/watermark?signature=${SIGNATURE}`],
      ['POST', `/health?token=${TOKEN}`],
      ['PATCH', `/storage/uploads/0b0e0c52/a.jpg?expires=4102444800&signature=${SIGNATURE}`],
    ] as const) {
      const res = await send(base, method, path, { authorization: `Bearer ${TOKEN}` });
      const problem = expectProblem(res, 404, 'not-found');
      expect(problem.instance).toBe(path.split('?')[0]);
      expect(problem.detail).toContain('No route answers this method at this path');
    }
  });

  // Not an error, but the page that documents all of the above: its title says what it is.
  it('serves the docs page at /docs titled "Hallmark API"', async () => {
    let res = await send(base, 'GET', '/docs');
    if (res.status >= 300 && res.status < 400) {
      res = await send(base, 'GET', new URL(res.headers.location ?? '', `${base}/docs/`).pathname);
    }
    expect(res.status).toBe(200);
    expect(res.body).toContain('<title>Hallmark API</title>');
  });
});

describe('a client whose headers never finish', () => {
  it('408 request-timeout for headers that do not arrive in time (a slow client holds nothing)', async () => {
    // A short header timeout, so the slow client is cut off after a second, not ten. Its own
    // service: under load a request of the other tests may take longer than that to arrive.
    const service = await startService({ HTTP_HEADERS_TIMEOUT_MS: '1000' });
    try {
      const { hostname, port } = new URL(service.baseUrl);
      const res = await new Promise<RawResponse>((resolve, reject) => {
        // The request line and one header, then silence: the socket stays open, unfinished.
        const socket = connect(Number(port), hostname, () =>
          socket.write(`GET /health?signature=${SIGNATURE} HTTP/1.1\r\nHost: x\r\n`),
        );
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('error', reject);
        // The server closes it: a connection left open would hang here until the test's timeout.
        socket.on('close', () => resolve(parseRawResponse(Buffer.concat(chunks))));
      });
      expectProblem(res, 408, 'request-timeout');
    } finally {
      await service.close();
    }
  });
});
