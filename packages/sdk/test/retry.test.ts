import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type FetchFunction,
  HallmarkApiError,
  HallmarkClient,
  isProblem,
  problemTypes,
} from '../src/index.ts';
import { retryAfterMs, retryPolicy } from '../src/retry.ts';
import { TestServer } from './test-server.ts';

/**
 * Refuses connections: nothing listens on port 2, a privileged port below the range the system
 * hands out (fetch will not even try port 1). A port freed by this process could be taken by
 * another suite on the same machine.
 */
const REFUSED_URL = 'http://127.0.0.1:2';

const requestId = '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d';
const fileId = '3f0c2a52-8a51-4c4e-9d7e-0e6f7f4a1b2c';
const pendingJob = { status: 'pending', requestId, fileId } as const;
const rateLimited = {
  status: 429,
  contentType: 'application/problem+json',
  body: problemTypes.rateLimited,
  headers: { 'retry-after': '0' },
} as const;
const unavailable = {
  status: 503,
  contentType: 'application/problem+json',
  body: problemTypes.serviceUnavailable,
} as const;

let server: TestServer;

beforeAll(async () => {
  server = await TestServer.start();
});
afterAll(async () => {
  await server.stop();
});
beforeEach(() => {
  server.requests.length = 0;
});

/** A client whose backoff steps are a millisecond, so retries without Retry-After are quick. */
function clientWith(options: { retries?: number; fetch?: FetchFunction; baseUrl?: string } = {}) {
  return new HallmarkClient({
    baseUrl: options.baseUrl ?? server.url,
    token: 'secret-token',
    retry: { retries: options.retries, baseDelayMs: 1 },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

async function rejection(call: Promise<unknown>): Promise<unknown> {
  return await call.then(
    () => expect.fail('expected the call to fail'),
    (reason: unknown) => reason,
  );
}

describe('retrying', () => {
  it('retries a 429 after its Retry-After, then returns the answer', async () => {
    server.answer(rateLimited, rateLimited, { status: 200, body: pendingJob });

    expect(await clientWith().getWatermarkJob(requestId)).toEqual(pendingJob);

    expect(server.requests).toHaveLength(3);
    // Each attempt is a complete request, bearer token included.
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      'Bearer secret-token',
      'Bearer secret-token',
      'Bearer secret-token',
    ]);
  });

  it('gives up after the configured number of retries with the last HallmarkApiError', async () => {
    server.answer(rateLimited, rateLimited, rateLimited);

    const error = await rejection(clientWith({ retries: 2 }).getWatermarkJob(requestId));

    expect(error).toBeInstanceOf(HallmarkApiError);
    expect(isProblem(error, problemTypes.rateLimited)).toBe(true);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 0 });
    expect(server.requests).toHaveLength(3);
  });

  it('retries 3 times by default, and not at all with retries: 0', async () => {
    server.answer(rateLimited, rateLimited, rateLimited, rateLimited, rateLimited);
    await rejection(new HallmarkClient({ baseUrl: server.url }).getHealth());
    expect(server.requests).toHaveLength(4);

    server.requests.length = 0;
    await rejection(clientWith({ retries: 0 }).getHealth());
    expect(server.requests).toHaveLength(1);
  });

  it('retries a 503 without Retry-After using its own backoff, POST included', async () => {
    const link = { fileId, uploadLink: `${server.url}/u?signature=x` };
    server.answer(unavailable, { status: 201, body: link });

    const answer = await clientWith().createUploadLink({
      contentType: 'image/png',
      fileName: 'a.png',
    });

    expect(answer).toEqual(link);
    expect(server.requests.map((request) => request.body)).toEqual([
      '{"contentType":"image/png","fileName":"a.png"}',
      '{"contentType":"image/png","fileName":"a.png"}',
    ]);
  });

  it('does not retry a 503 that is a documented result (GET /ready)', async () => {
    const notReady = {
      status: 'not_ready',
      checks: {
        postgres: { status: 'down' },
        redis: { status: 'up' },
        migrations: { status: 'up' },
      },
    };
    server.answer({ status: 503, body: notReady });
    expect(await clientWith().getReadiness()).toEqual(notReady);
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry other errors', async () => {
    server.answer({
      status: 500,
      contentType: 'application/problem+json',
      body: problemTypes.internal,
    });
    expect(await rejection(clientWith().getWatermarkJob(requestId))).toMatchObject({
      status: 500,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('returns at once when Retry-After asks for a longer wait than maxDelayMs', async () => {
    server.answer({ ...rateLimited, headers: { 'retry-after': '120' } });
    const client = new HallmarkClient({ baseUrl: server.url, retry: { maxDelayMs: 30_000 } });

    const error = await rejection(client.getHealth());

    expect(error).toMatchObject({ status: 429, retryAfterMs: 120_000 });
    expect(server.requests).toHaveLength(1);
  });

  it('stops at once when aborted during a Retry-After wait', async () => {
    // An hour-long wait: were the abort not honoured, the test would hang and time out.
    server.answer({ ...rateLimited, headers: { 'retry-after': '3600' } });
    const controller = new AbortController();
    const client = new HallmarkClient({
      baseUrl: server.url,
      retry: { maxDelayMs: 2 * 3600_000 },
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        controller.abort();
        return response;
      },
    });

    const error = await rejection(client.getHealth({ signal: controller.signal }));

    expect(error).toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(1);
  });

  it('retries a lost connection for GET only', async () => {
    const attempts: string[] = [];
    const counting: FetchFunction = (url, init) => {
      attempts.push(init.method ?? 'GET');
      return fetch(url, init);
    };
    const client = clientWith({ baseUrl: REFUSED_URL, fetch: counting });

    expect(await rejection(client.getWatermarkJob(requestId))).toBeInstanceOf(TypeError);
    expect(attempts).toEqual(['GET', 'GET', 'GET', 'GET']);

    attempts.length = 0;
    const post = client.createWatermarkJob({ fileId, options: { watermarkType: ['c2pa'] } });
    expect(await rejection(post)).toBeInstanceOf(TypeError);
    expect(attempts).toEqual(['POST']);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2025-01-15T12:00:00Z');

  it('reads delay-seconds and HTTP dates', () => {
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Wed, 15 Jan 2025 12:00:30 GMT', now)).toBe(30_000);
    // A date in the past means "now".
    expect(retryAfterMs('Wed, 15 Jan 2025 11:00:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('', now)).toBeUndefined();
    expect(retryAfterMs('1.5', now)).toBeUndefined();
    expect(retryAfterMs('-3', now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });

  it('refuses a negative or non-finite policy', () => {
    expect(() => retryPolicy({ retries: -1 })).toThrow(RangeError);
    expect(() => retryPolicy({ maxDelayMs: Number.NaN })).toThrow(RangeError);
    expect(retryPolicy()).toEqual({ retries: 3, maxDelayMs: 30_000, baseDelayMs: 500 });
  });
});
