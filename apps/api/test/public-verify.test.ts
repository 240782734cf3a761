import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createOperator } from '@hallmark/db';
import { checkReport } from '@hallmark/sdk';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegPhoto, pngImage } from './support/photos.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const PROBLEMS = 'https://hallmark.dev/problems/';

function expectProblem(res: LightMyRequestResponse, status: number, slug: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.json().type).toBe(`${PROBLEMS}${slug}`);
}

/** The root of the development identity, which signs reports when no report key is set. */
const developmentRoot = (t: TestApp) =>
  readFile(join(t.config.HALLMARK_DATA_DIR, 'c2pa/development-identity/root-ca.pem'), 'utf8');

const publicVerify = (t: TestApp, bytes: Uint8Array, from: string, type = 'image/jpeg') =>
  t.app.inject({
    method: 'POST',
    url: '/public/verify',
    headers: { 'content-type': type },
    payload: Buffer.from(bytes),
    remoteAddress: from,
  });

describe('public verification is off unless PUBLIC_VERIFY=true', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('says so, answers 404 public-verify-off and records nothing', async () => {
    const settings = await t.app.inject({ method: 'GET', url: '/public/verify' });
    expect(settings.statusCode).toBe(200);
    expect(settings.json()).toMatchObject({ enabled: false });
    expectProblem(await publicVerify(t, jpegPhoto, '10.9.0.1'), 404, 'public-verify-off');
    expect(await t.prisma.verification.count()).toBe(0);
  });
});

describe('public verification, enabled: anyone, limited per address, no ids', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      PUBLIC_VERIFY: 'true',
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: '3',
      VERIFY_SYNC_MAX_BYTES: String(jpegPhoto.length + 10),
      VERIFY_ANONYMOUS_MAX_PIXELS: '5000000',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('states its bounds: the anonymous pixel limit, the in-request byte limit', async () => {
    const settings = await t.app.inject({
      method: 'GET',
      url: '/public/verify',
      remoteAddress: '10.9.1.1',
    });
    expect(settings.json()).toEqual({
      enabled: true,
      maxBytes: jpegPhoto.length + 10,
      maxPixels: Math.min(5_000_000, t.config.MAX_IMAGE_PIXELS),
    });
  });

  it('verifies an image without a key, records it as public with no key, and keeps no file', async () => {
    const res = await publicVerify(t, jpegPhoto, '10.9.2.1');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.report).toMatchObject({ verdict: 'no_provenance', record: null });
    expect(Object.keys(body).sort()).toEqual(['report', 'signedReport', 'verifiedAt']);
    const rows = await t.prisma.verification.findMany();
    // The picture is not kept: the answer carries its signed report, about these very bytes.
    const checked = await checkReport(body.signedReport, {
      trustAnchors: await developmentRoot(t),
      file: jpegPhoto,
    });
    expect(checked.statement).toMatchObject({
      verificationId: rows[0]?.id,
      verdict: 'no_provenance',
      file: { sha256: createHash('sha256').update(jpegPhoto).digest('hex') },
    });
    await expect(
      checkReport(body.signedReport, { trustAnchors: await developmentRoot(t), file: pngImage }),
    ).rejects.toThrow();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      origin: 'public',
      apiKeyId: null,
      operatorId: null,
      fileId: null,
      verdict: 'no_provenance',
    });
    expect(await t.prisma.file.count()).toBe(0);
    // Whatever writes it, a public row never becomes some key's.
    const { apiKeyId } = await t.newClient();
    await expect(
      t.prisma.verification.update({ where: { id: rows[0]?.id ?? '' }, data: { apiKeyId } }),
    ).rejects.toThrow(/wrong owner/);
  });

  it('refuses what is not an image, and an image over VERIFY_SYNC_MAX_BYTES, before reading it', async () => {
    expectProblem(
      await publicVerify(t, Buffer.from('not a picture at all'), '10.9.3.1', 'image/png'),
      415,
      'unsupported-media-type',
    );
    expectProblem(
      await publicVerify(t, Buffer.concat([jpegPhoto, Buffer.alloc(64)]), '10.9.3.2'),
      413,
      'payload-too-large',
    );
  });

  it('counts each address on its own, as the other public routes do: the fourth request waits', async () => {
    const from = '10.9.4.1';
    for (let i = 0; i < 3; i++) {
      expect((await publicVerify(t, pngImage, from, 'image/png')).statusCode).toBe(200);
    }
    const limited = await publicVerify(t, pngImage, from, 'image/png');
    expectProblem(limited, 429, 'rate-limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The settings read is public too, and counted against the same address.
    expect(
      (await t.app.inject({ method: 'GET', url: '/public/verify', remoteAddress: from }))
        .statusCode,
    ).toBe(429);
    expect((await publicVerify(t, pngImage, '10.9.4.2', 'image/png')).statusCode).toBe(200);
  });
});

describe('verifications in the console: viewers read, admins verify an image', () => {
  let t: TestApp;
  let client: { apiKeyId: string; prefix: string; bearer: string };
  let address = 0;
  const ip = () => `10.8.0.${++address}`;

  async function signIn(email: string, password: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/session',
      payload: { email, password },
      remoteAddress: ip(),
    });
    expect(res.statusCode, res.body).toBe(201);
    const cookie = String(res.headers['set-cookie'] ?? '').split(';')[0] ?? '';
    return { cookie, csrf: res.json().csrfToken as string };
  }

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_VERIFY: 'true', RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000' });
    await createOperator(t.prisma, 'admin@hallmark.example', 'admin', 'correct horse battery');
    await createOperator(t.prisma, 'viewer@hallmark.example', 'viewer', 'staple paper clip');
    client = await t.newClient('keyed client');
    const keyed = await t.app.inject({
      method: 'POST',
      url: '/verify/file',
      headers: { authorization: client.bearer, 'content-type': 'image/jpeg' },
      payload: jpegPhoto,
    });
    expect(keyed.statusCode, keyed.body).toBe(200);
    expect((await publicVerify(t, pngImage, ip(), 'image/png')).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  const verifyAsOperator = (session: { cookie: string; csrf: string }, csrf = session.csrf) =>
    t.app.inject({
      method: 'POST',
      url: '/admin/verifications',
      headers: { cookie: session.cookie, 'x-csrf-token': csrf, 'content-type': 'image/jpeg' },
      payload: jpegPhoto,
      remoteAddress: ip(),
    });

  it('an admin verifies an image: recorded as theirs, answered with the ids and the public view', async () => {
    const admin = await signIn('admin@hallmark.example', 'correct horse battery');
    expectProblem(await verifyAsOperator(admin, 'wrong'), 403, 'forbidden');
    const res = await verifyAsOperator(admin);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      origin: 'console',
      operatorEmail: 'admin@hallmark.example',
      keyPrefix: null,
      status: 'success',
      verdict: 'no_provenance',
      fileId: null,
      issuedRequestId: null,
      error: null,
      report: { verdict: 'no_provenance' },
    });
    const row = await t.prisma.verification.findUniqueOrThrow({
      where: { id: res.json().verificationId },
    });
    expect(row).toMatchObject({ origin: 'console', apiKeyId: null });
  });

  it('a viewer lists, filters and opens them, but may not verify an image', async () => {
    const viewer = await signIn('viewer@hallmark.example', 'staple paper clip');
    const list = async (query = '') => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/admin/verifications${query}`,
        headers: { cookie: viewer.cookie },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as {
        items: { verificationId: string; origin: string; keyPrefix: string | null }[];
        nextCursor: string | null;
      };
    };
    const all = await list();
    expect(all.items.map((item) => item.origin).sort()).toEqual(['api', 'console', 'public']);
    const byKey = await list(`?key=${client.prefix}`);
    expect(byKey.items).toHaveLength(1);
    expect(byKey.items[0]).toMatchObject({ origin: 'api', keyPrefix: client.prefix });
    expect((await list('?verdict=no_provenance')).items).toHaveLength(3);
    expect((await list('?verdict=authentic')).items).toHaveLength(0);
    expect((await list('?origin=public')).items.map((item) => item.origin)).toEqual(['public']);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await list(`?from=${future}`)).items).toHaveLength(0);
    expect((await list(`?to=${future}`)).items).toHaveLength(3);
    const first = await list('?limit=2');
    expect(first.items).toHaveLength(2);
    const second = await list(`?limit=2&cursor=${first.nextCursor}`);
    expect(second.items).toHaveLength(1);
    expect(second.nextCursor).toBeNull();

    const id = byKey.items[0]?.verificationId;
    const detail = await t.app.inject({
      method: 'GET',
      url: `/admin/verifications/${id}`,
      headers: { cookie: viewer.cookie },
    });
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ verificationId: id, keyPrefix: client.prefix });

    // Every verification's signed report, whoever asked for it: it names no key, job or file.
    for (const item of all.items) {
      const report = await t.app.inject({
        method: 'GET',
        url: `/admin/verifications/${item.verificationId}/report`,
        headers: { cookie: viewer.cookie },
      });
      expect(report.statusCode, report.body).toBe(200);
      expect(report.headers['content-disposition']).toContain(item.verificationId);
      const checked = await checkReport(report.body, { trustAnchors: await developmentRoot(t) });
      expect(checked.statement.verificationId).toBe(item.verificationId);
      expect(report.body).not.toContain(client.apiKeyId);
    }

    const before = await t.prisma.verification.count();
    expectProblem(await verifyAsOperator(viewer), 403, 'forbidden');
    expect(await t.prisma.verification.count()).toBe(before);
  });

  it('refuses a bad filter, an unknown verification, and anyone without a session', async () => {
    const viewer = await signIn('viewer@hallmark.example', 'staple paper clip');
    const get = (url: string, cookie = viewer.cookie) =>
      t.app.inject({ method: 'GET', url, headers: { cookie }, remoteAddress: ip() });
    expectProblem(await get('/admin/verifications?verdict=fine'), 400, 'validation-error');
    expectProblem(
      await get('/admin/verifications/8c1f4a0e-0000-4000-8000-000000000000'),
      404,
      'not-found',
    );
    expectProblem(
      await get('/admin/verifications/8c1f4a0e-0000-4000-8000-000000000000/report'),
      404,
      'not-found',
    );
    expectProblem(await get('/admin/verifications/not-an-id/report'), 400, 'validation-error');
    expectProblem(await get('/admin/verifications', ''), 401, 'unauthorized');
    const [any] = await t.prisma.verification.findMany({ take: 1 });
    expectProblem(await get(`/admin/verifications/${any?.id}/report`, ''), 401, 'unauthorized');
  });
});
