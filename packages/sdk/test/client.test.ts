import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  HallmarkApiError,
  HallmarkClient,
  problemTypes,
  type VerificationJob,
  verifyImage,
  type WatermarkAccepted,
  type WatermarkJob,
  type WatermarkRequest,
} from '../src/index.ts';
import { TestServer } from './test-server.ts';

const requestId = '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d';
const fileId = '3f0c2a52-8a51-4c4e-9d7e-0e6f7f4a1b2c';

let server: TestServer;
let client: HallmarkClient;

beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});
beforeEach(() => {
  server.requests.length = 0;
  client = new HallmarkClient({ baseUrl: server.url, token: 'secret-token' });
});

/** Runs a call that must fail and returns its error. */
async function failure(call: Promise<unknown>): Promise<HallmarkApiError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(HallmarkApiError);
  return error as HallmarkApiError;
}

describe('HallmarkClient', () => {
  it('creates a watermark job: bearer token, JSON body, Idempotency-Key, typed answer', async () => {
    const accepted: WatermarkAccepted = { status: 'pending', requestId, fileId };
    server.answer({ status: 202, body: accepted });
    const body: WatermarkRequest = {
      fileId,
      options: { watermarkType: ['invisible', 'c2pa'], data: { creationDate: '2025-01-15' } },
    };

    const answer = await client.createWatermarkJob(body, { idempotencyKey: 'retry-1' });

    expect(answer).toEqual(accepted);
    const [sent] = server.requests;
    expect(sent?.method).toBe('POST');
    expect(sent?.url).toBe('/watermark');
    expect(sent?.headers.authorization).toBe('Bearer secret-token');
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers['idempotency-key']).toBe('retry-1');
    expect(JSON.parse(sent?.body ?? '')).toEqual(body);
  });

  it('leaves out an Idempotency-Key that was not given', async () => {
    server.answer({ status: 202, body: { status: 'pending', requestId, fileId } });
    await client.createWatermarkJob({ fileId, options: { watermarkType: ['c2pa'] } });
    expect(server.requests[0]?.headers).not.toHaveProperty('idempotency-key');
  });

  it('puts path parameters in the path and decodes the job', async () => {
    const job: WatermarkJob = {
      status: 'success',
      requestId,
      fileId,
      watermarkedUrl: 'https://storage.example.com/w?signature=x',
      expiredAt: 1767225600,
    };
    server.answer({ status: 200, body: job });

    expect(await client.getWatermarkJob(requestId)).toEqual(job);
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: `/watermark/${requestId}` });
    expect(server.requests[0]?.body).toBe('');
  });

  it('percent-encodes path parameters and refuses ones that would change the route', async () => {
    server.answer({
      status: 404,
      contentType: 'application/problem+json',
      body: problemTypes.notFound,
    });
    await failure(client.getIpfsRecord('a/b?c'));
    expect(server.requests[0]?.url).toBe('/ipfs/a%2Fb%3Fc');

    await expect(client.getNft('..')).rejects.toThrow(TypeError);
    await expect(client.getNft('')).rejects.toThrow(TypeError);
    expect(server.requests).toHaveLength(1);
  });

  it('turns a problem+json 4xx into a HallmarkApiError with the problem details', async () => {
    server.answer({
      status: 400,
      contentType: 'application/problem+json',
      body: {
        ...problemTypes.validationError,
        detail: 'The request body has 1 invalid field.',
        instance: '/watermark',
        errors: [
          { path: 'options.watermarkType', message: 'Expected at least one watermark type' },
        ],
      },
    });

    const error = await failure(
      client.createWatermarkJob({ fileId, options: { watermarkType: [] } }),
    );

    expect(error.status).toBe(400);
    expect(error.type).toBe('https://hallmark.dev/problems/validation-error');
    expect(error.title).toBe('Request validation failed');
    expect(error.problem).toMatchObject({
      status: 400,
      detail: 'The request body has 1 invalid field.',
      errors: [{ path: 'options.watermarkType', message: 'Expected at least one watermark type' }],
    });
    expect(error.message).toBe(
      '400 Request validation failed: The request body has 1 invalid field. (options.watermarkType: Expected at least one watermark type)',
    );
  });

  it('reports a 401 with the catalogue type', async () => {
    server.answer({
      status: 401,
      contentType: 'application/problem+json',
      body: problemTypes.unauthorized,
    });
    const error = await failure(client.getNft('42'));
    expect(error.type).toBe(problemTypes.unauthorized.type);
    expect(error.status).toBe(401);
  });

  it('keeps a body that is not problem details, e.g. a proxy page', async () => {
    server.answer({ status: 502, contentType: 'text/html', body: '<h1>Bad gateway</h1>' });
    const error = await failure(client.getWatermarkJob(requestId));
    expect(error.status).toBe(502);
    expect(error.problem).toBeUndefined();
    expect(error.body).toBe('<h1>Bad gateway</h1>');
  });

  it('refuses a success answer without the documented JSON body', async () => {
    server.answer({ status: 200, contentType: 'text/plain', body: 'ok' });
    const error = await failure(client.getHealth());
    expect(error.status).toBe(200);
    expect(error.body).toBe('ok');
  });

  it('sends no token to the probes, and returns the readiness body on 503 too', async () => {
    const notReady = {
      status: 'not_ready',
      checks: {
        postgres: { status: 'up' },
        redis: { status: 'down' },
        migrations: { status: 'up' },
      },
    } as const;
    server.answer({ status: 200, body: { status: 'ok' } }, { status: 503, body: notReady });

    expect(await client.getHealth()).toEqual({ status: 'ok' });
    expect(await client.getReadiness()).toEqual(notReady);
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      undefined,
      undefined,
    ]);
  });

  it('asks a token function before each call and keeps a base path', async () => {
    let calls = 0;
    const tokenClient = new HallmarkClient({
      baseUrl: `${server.url}/api/`,
      token: async () => `token-${++calls}`,
    });
    server.answer(
      { status: 201, body: { fileId, uploadLink: 'https://s.example/u?signature=x' } },
      { status: 201, body: { fileId, uploadLink: 'https://s.example/u?signature=y' } },
    );

    await tokenClient.createUploadLink({ contentType: 'image/png', fileName: 'a.png' });
    await tokenClient.createUploadLink({ contentType: 'image/png', fileName: 'b.png' });

    expect(server.requests.map((request) => [request.url, request.headers.authorization])).toEqual([
      ['/api/claim/file-upload-link', 'Bearer token-1'],
      ['/api/claim/file-upload-link', 'Bearer token-2'],
    ]);
  });

  it('uses an injected fetch', async () => {
    const seen: string[] = [];
    const injected = new HallmarkClient({
      baseUrl: 'https://api.example.com',
      fetch: async (url, init) => {
        seen.push(`${init.method} ${url}`);
        return new Response(JSON.stringify({ status: 'ok' }), { status: 200 });
      },
    });
    expect(await injected.getHealth()).toEqual({ status: 'ok' });
    expect(seen).toEqual(['GET https://api.example.com/health']);
  });

  it('passes the abort signal through', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(client.getHealth({ signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('sends an image as the raw body with its type, and verifyImage reads a path', async () => {
    const verification: VerificationJob = {
      status: 'success',
      requestId,
      fileId: null,
      result: { verdict: 'no_provenance' } as VerificationJob['result'],
    };
    server.answer({ status: 200, body: verification });
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(await client.verifyImage(bytes, { contentType: 'image/png' })).toEqual(verification);
    const [sent] = server.requests;
    expect([sent?.method, sent?.url]).toEqual(['POST', '/verify/file']);
    expect(sent?.headers['content-type']).toBe('image/png');
    expect(sent?.headers.authorization).toBe('Bearer secret-token');
    expect(sent?.bytes).toEqual(Buffer.from(bytes));

    const folder = await mkdtemp(join(tmpdir(), 'hallmark-sdk-'));
    try {
      await writeFile(join(folder, 'copy.JPG'), 'not really a jpeg');
      server.answer({ status: 200, body: verification });
      const { report } = await verifyImage(client, join(folder, 'copy.JPG'));
      expect(report.verdict).toBe('no_provenance');
      expect(server.requests[1]?.headers['content-type']).toBe('image/jpeg');
      expect(server.requests[1]?.body).toBe('not really a jpeg');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => new HallmarkClient({ baseUrl: 'ftp://example.com' })).toThrow(TypeError);
    expect(() => new HallmarkClient({ baseUrl: 'not a url' })).toThrow(TypeError);
  });
});

describe('HallmarkClient defaults from the environment', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('calls HALLMARK_URL with HALLMARK_API_KEY when given no options', async () => {
    vi.stubEnv('HALLMARK_URL', `${server.url}/`);
    vi.stubEnv('HALLMARK_API_KEY', 'key-from-env');
    server.requests.length = 0;
    // The test server has no answer set up: only what was sent matters here.
    await new HallmarkClient().createAccessToken().catch(() => undefined);
    expect(server.requests[0]?.url).toBe('/auth/token');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer key-from-env');
  });

  it('lets options win over the environment, and falls back to localhost:3000', async () => {
    vi.stubEnv('HALLMARK_URL', '');
    vi.stubEnv('HALLMARK_API_KEY', 'key-from-env');
    const seen: Array<{ url: string; authorization: string | null }> = [];
    const fetch = async (url: string, init: RequestInit) => {
      seen.push({ url, authorization: new Headers(init.headers).get('authorization') });
      return Response.json({ status: 'ok' });
    };
    await new HallmarkClient({ fetch }).createAccessToken().catch(() => undefined);
    await new HallmarkClient({ fetch, token: 'explicit' })
      .createAccessToken()
      .catch(() => undefined);
    expect(seen).toEqual([
      { url: 'http://localhost:3000/auth/token', authorization: 'Bearer key-from-env' },
      { url: 'http://localhost:3000/auth/token', authorization: 'Bearer explicit' },
    ]);
  });
});
