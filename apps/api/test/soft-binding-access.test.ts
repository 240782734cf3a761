import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';

describe('who may query the Soft Binding Resolution API', () => {
  let keyed: TestApp;
  let open: TestApp;

  beforeAll(async () => {
    keyed = await startTestApp();
    open = await startTestApp({
      SOFT_BINDING_API_PUBLIC: 'true',
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: '2',
    });
  });

  afterAll(async () => {
    await keyed?.close();
    await open?.close();
  });

  const paths = ['/services/supportedAlgorithms', '/matches/byBinding?alg=a&value=AAAAAAAAAAA='];

  it('needs an API key by default', async () => {
    for (const url of paths) {
      expect((await keyed.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
    const { bearer } = await keyed.newClient();
    const answer = await keyed.app.inject({
      method: 'GET',
      url: paths[0],
      headers: { authorization: bearer },
    });
    expect(answer.statusCode).toBe(200);
  });

  it('with SOFT_BINDING_API_PUBLIC=true anyone may ask, limited per address; the rest still needs a key', async () => {
    const from = (url: string) =>
      open.app.inject({ method: 'GET', url, remoteAddress: '10.1.1.1' });
    expect((await from(paths[0] ?? '')).statusCode).toBe(200);
    expect((await from(paths[1] ?? '')).json()).toEqual({ matches: [] });
    expect((await from(paths[0] ?? '')).statusCode).toBe(429);
    const verify = await open.app.inject({
      method: 'GET',
      url: '/verify/8c1f4a0e-0000-4000-8000-000000000000',
      remoteAddress: '10.1.1.2',
    });
    expect(verify.statusCode).toBe(401);
  });
});
