import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { secretSealer } from '@hallmark/config';
import { decideKeyRequest, revokeApiKey } from '@hallmark/db';
import { consoleForwardingHeaders, loadServiceKeys } from '@hallmark/service-keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBusinessDays } from '../src/key-requests/business-days.ts';
import { pathOf } from './support/flow.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const request = {
  companyName: 'Acme Photo',
  purpose: 'Watermark our agency pictures before publishing them.',
  contactName: 'Ada Lovelace',
  contactEmail: 'ada@acme.example',
  website: 'https://acme.example',
  expectedVolume: 'about 5,000 a month',
};

describe('asking for an API key (company, purpose, contact; an answer in two business days)', () => {
  let t: TestApp;
  let address = 0;
  // Each test asks from its own address, so the hourly limit of one does not touch another.
  const from = () => `10.9.0.${++address}`;
  // What the service seals with: the key derived from its own secret.
  const sealer = async () => secretSealer((await loadServiceKeys(t.config)).secretSealing);

  beforeAll(async () => {
    t = await startTestApp({
      KEY_REQUESTS_PER_HOUR: '3',
      OPERATOR_EMAIL: 'ops@hallmark.example',
      ADMIN_PUBLIC_URL: 'https://console.hallmark.example/',
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  const submit = (body: unknown, remoteAddress = from()) =>
    t.app.inject({ method: 'POST', url: '/key-requests', payload: body as object, remoteAddress });

  it('202 with a private status link and the due date; both parties get mail in the outbox', async () => {
    const res = await submit(request);
    expect(res.statusCode).toBe(202);
    const accepted = res.json() as {
      requestId: string;
      statusUrl: string;
      statusPage: string;
      dueAt: number;
    };
    expect(accepted.statusUrl).toMatch(/\/key-requests\/[0-9a-f-]{36}\?token=[A-Za-z0-9_-]{43}$/);
    const status = await t.app.inject({ method: 'GET', url: pathOf(accepted.statusUrl) });
    expect(status.json()).toMatchObject({ status: 'pending', companyName: 'Acme Photo' });
    expect(status.json()).not.toHaveProperty('apiKey');
    const outbox = join(t.config.HALLMARK_DATA_DIR, 'outbox');
    const messages = await Promise.all(
      (await readdir(outbox)).map((name) => readFile(join(outbox, name), 'utf8')),
    );
    // People get the console's page for the same request and token; programs the API's link.
    const token = new URL(accepted.statusUrl).searchParams.get('token');
    expect(accepted.statusPage).toBe(
      `https://console.hallmark.example/request-key/${accepted.requestId}?token=${token}`,
    );
    const toRequester = messages.find((text) => text.includes('To: ada@acme.example'));
    expect(toRequester).toContain(accepted.statusPage);
    // Anyone may type any address: that mail carries none of the requester's words.
    for (const written of [request.contactName, request.companyName, request.website]) {
      expect(toRequester).not.toContain(written);
    }
    const toOperator = messages.find((text) => text.includes('To: ops@hallmark.example'));
    expect(toOperator).toContain('https://console.hallmark.example/key-requests');
  });

  it('approval makes the key at once, sealed; reading the link never uses it up; one POST shows it with the API address, then only its prefix is left', async () => {
    const accepted = (await submit(request)).json() as { requestId: string; statusUrl: string };
    const decided = await decideKeyRequest(t.prisma, accepted.requestId, {
      approve: true,
      by: 'test',
      sealer: await sealer(),
    });
    // The key exists from approval on: listed, its plaintext nowhere in clear.
    const approvedRow = await t.prisma.keyRequest.findUniqueOrThrow({
      where: { id: accepted.requestId },
      include: { apiKey: true },
    });
    expect(approvedRow.apiKey?.prefix).toBe(decided?.apiKeyPrefix);
    expect(approvedRow.sealedApiKey).toMatch(/^v1\./);
    expect(approvedRow.sealedApiKey).not.toContain(approvedRow.apiKey?.prefix);
    // A mail scanner follows the link (GET, HEAD): the key stays waiting.
    for (const method of ['GET', 'HEAD', 'GET'] as const) {
      const read = await t.app.inject({ method, url: pathOf(accepted.statusUrl) });
      expect(read.statusCode).toBe(200);
      if (method === 'GET') {
        expect(read.json()).toMatchObject({
          status: 'approved',
          keyReady: true,
          apiKeyPrefix: approvedRow.apiKey?.prefix,
        });
        expect(read.json()).not.toHaveProperty('apiKey');
      }
    }
    const waiting = await t.prisma.keyRequest.findUniqueOrThrow({
      where: { id: accepted.requestId },
    });
    expect(waiting.sealedApiKey).toBe(approvedRow.sealedApiKey);
    const collectUrl = pathOf(accepted.statusUrl).replace('?token=', '/key?token=');
    const collected = await t.app.inject({ method: 'POST', url: collectUrl });
    expect(collected.statusCode).toBe(201);
    expect(collected.headers['cache-control']).toBe('no-store');
    const first = collected.json() as { apiKey: string; apiKeyPrefix: string; apiUrl: string };
    expect(first.apiKey).toMatch(/^hm_/);
    expect(first.apiKeyPrefix).toBe(approvedRow.apiKey?.prefix);
    expect(first.apiUrl).toBe(new URL(accepted.statusUrl).origin);
    const token = await t.app.inject({
      method: 'POST',
      url: '/auth/token',
      headers: { authorization: `Bearer ${first.apiKey}` },
    });
    expect(token.statusCode).toBe(201);
    // Collected: the sealed copy is erased, the hash alone is left.
    const after = await t.prisma.keyRequest.findUniqueOrThrow({
      where: { id: accepted.requestId },
    });
    expect(after.sealedApiKey).toBeNull();
    expect(after.apiKeyId).toBe(approvedRow.apiKeyId);
    const second = (await t.app.inject({ method: 'GET', url: pathOf(accepted.statusUrl) })).json();
    expect(second).not.toHaveProperty('apiKey');
    expect(second).not.toHaveProperty('keyReady');
    expect(second.apiKeyPrefix).toBe(first.apiKeyPrefix);
    // Collected once: a second POST is refused with a problem, and a wrong token finds nothing.
    const again = await t.app.inject({ method: 'POST', url: collectUrl });
    expect(again.statusCode).toBe(409);
    expect(again.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(again.json().type).toMatch(/\/key-not-available$/);
    expect(again.json().detail).toMatch(/collected already/);
    const wrong = await t.app.inject({
      method: 'POST',
      url: `/key-requests/${accepted.requestId}/key?token=${'A'.repeat(43)}`,
    });
    expect(wrong.statusCode).toBe(404);
    // Decided once: a second decision changes nothing.
    expect(
      await decideKeyRequest(t.prisma, accepted.requestId, {
        approve: false,
        reason: 'x',
        by: 'test',
      }),
    ).toBeNull();
  });

  it('a key sealed under another service secret is not shown: the requester is told to ask for a re-issue', async () => {
    const accepted = (await submit(request)).json() as { requestId: string; statusUrl: string };
    await decideKeyRequest(t.prisma, accepted.requestId, {
      approve: true,
      by: 'test',
      sealer: secretSealer(randomBytes(32)),
    });
    const collectUrl = pathOf(accepted.statusUrl).replace('?token=', '/key?token=');
    const refused = await t.app.inject({ method: 'POST', url: collectUrl });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/re-issue/);
    // Nothing erased: after a re-issue the requester collects the new key.
    const row = await t.prisma.keyRequest.findUniqueOrThrow({ where: { id: accepted.requestId } });
    expect(row.sealedApiKey).not.toBeNull();
  });

  it('a key revoked before it was collected is not handed out, and the link says so', async () => {
    const accepted = (await submit(request)).json() as { requestId: string; statusUrl: string };
    await decideKeyRequest(t.prisma, accepted.requestId, {
      approve: true,
      by: 'test',
      sealer: await sealer(),
    });
    const { apiKey } = await t.prisma.keyRequest.findUniqueOrThrow({
      where: { id: accepted.requestId },
      include: { apiKey: true },
    });
    await t.prisma.$transaction((tx) => revokeApiKey(tx, apiKey?.prefix ?? ''));
    const status = (await t.app.inject({ method: 'GET', url: pathOf(accepted.statusUrl) })).json();
    expect(status).toMatchObject({ status: 'approved', apiKeyPrefix: apiKey?.prefix });
    expect(status.keyReady).toBeUndefined();
    const collectUrl = pathOf(accepted.statusUrl).replace('?token=', '/key?token=');
    const refused = await t.app.inject({ method: 'POST', url: collectUrl });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toMatch(/revoked/);
    // The operators still see it as never collected.
    const listed = await t.prisma.keyRequest.findUniqueOrThrow({
      where: { id: accepted.requestId },
    });
    expect(listed.sealedApiKey).not.toBeNull();
  });

  it('a request approved before approval made keys gets its key made on collection, once', async () => {
    const accepted = (await submit(request)).json() as { requestId: string; statusUrl: string };
    // As an older version left it: approved, no key.
    await t.prisma.keyRequest.update({
      where: { id: accepted.requestId },
      data: { status: 'approved', decidedAt: new Date(), decidedBy: 'older version' },
    });
    const status = (await t.app.inject({ method: 'GET', url: pathOf(accepted.statusUrl) })).json();
    expect(status).toMatchObject({ status: 'approved', keyReady: true });
    const collectUrl = pathOf(accepted.statusUrl).replace('?token=', '/key?token=');
    const collected = await t.app.inject({ method: 'POST', url: collectUrl });
    expect(collected.statusCode).toBe(201);
    expect(collected.json().apiKey).toMatch(/^hm_/);
    expect((await t.app.inject({ method: 'POST', url: collectUrl })).statusCode).toBe(409);
  });

  it('rejected: the link says why, and no key exists', async () => {
    const accepted = (await submit(request)).json() as { requestId: string; statusUrl: string };
    await decideKeyRequest(t.prisma, accepted.requestId, {
      approve: false,
      reason: 'We serve press agencies only.',
      by: 'test',
    });
    const status = (await t.app.inject({ method: 'GET', url: pathOf(accepted.statusUrl) })).json();
    expect(status).toMatchObject({ status: 'rejected', reason: 'We serve press agencies only.' });
    expect(status).not.toHaveProperty('apiKey');
    const collect = await t.app.inject({
      method: 'POST',
      url: pathOf(accepted.statusUrl).replace('?token=', '/key?token='),
    });
    expect(collect.statusCode).toBe(409);
    const row = await t.prisma.keyRequest.findUniqueOrThrow({ where: { id: accepted.requestId } });
    expect(row.apiKeyId).toBeNull();
  });

  it('a wrong token or id is a 404; a malformed one a 400', async () => {
    const accepted = (await submit(request)).json() as { requestId: string; statusUrl: string };
    const url = new URL(accepted.statusUrl);
    url.searchParams.set('token', 'A'.repeat(43));
    expect((await t.app.inject({ method: 'GET', url: pathOf(url.href) })).statusCode).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/key-requests/${accepted.requestId}?token=short`,
        })
      ).statusCode,
    ).toBe(400);
  });

  it('bad input is a 400 naming every field; the honeypot is answered like any request and dropped', async () => {
    const before = await t.prisma.keyRequest.count();
    const bad = await submit({ companyName: '', contactEmail: 'not-an-email', extra: 1 });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toMatch(/^application\/problem\+json/);
    const paths = (bad.json().errors as Array<{ path: string }>).map((error) => error.path);
    expect(paths).toEqual(
      expect.arrayContaining(['companyName', 'contactEmail', 'purpose', 'extra']),
    );
    const bot = await submit({ ...request, fax: '+1 555 0100' });
    expect(bot.statusCode).toBe(202);
    expect(await t.prisma.keyRequest.count()).toBe(before);
    const botStatus = await t.app.inject({ method: 'GET', url: pathOf(bot.json().statusUrl) });
    expect(botStatus.statusCode).toBe(404);
  });

  it('names that would forge mail headers or read deceptively are refused; any script is accepted', async () => {
    const refused = await submit({
      ...request,
      companyName: 'Acme\r\nBcc: eve@evil.example',
      contactName: 'Ada \u202eexe.gpj',
      expectedVolume: 'about\u200b5,000',
      purpose: 'Line one\nline two\u0007',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    const paths = (refused.json().errors as Array<{ path: string }>).map((error) => error.path);
    expect(paths.sort()).toEqual(['companyName', 'contactName', 'expectedVolume', 'purpose']);
    // Several lines of purpose, accents, a Persian name with its zero-width non-joiner: accepted,
    // and the operator's mail names the company in an encoded subject on its own line.
    const accepted = await submit({
      ...request,
      companyName: 'Zoë Café',
      contactName: 'می\u200cخواهم',
      purpose: 'Line one\nline two',
    });
    expect(accepted.statusCode).toBe(202);
    const outbox = join(t.config.HALLMARK_DATA_DIR, 'outbox');
    const messages = await Promise.all(
      (await readdir(outbox)).map((name) => readFile(join(outbox, name), 'utf8')),
    );
    const toOperator = messages.find(
      (text) => text.includes('To: ops@hallmark.example') && text.includes('Company: Zoë Café'),
    );
    expect(toOperator).toMatch(/\r\nSubject: =\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=\r\n/);
  });

  it('limited per address and hour (KEY_REQUESTS_PER_HOUR)', async () => {
    const address = from();
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await submit(request, address)).statusCode);
    expect(statuses).toEqual([202, 202, 202, 429]);
    // IPv6: one /64 is one address (RATE_LIMIT_IPV6_PREFIX), however many it holds.
    const sameNetwork = [];
    for (let i = 1; i <= 4; i++) {
      sameNetwork.push((await submit(request, `2001:db8:5:6::${i.toString(16)}`)).statusCode);
    }
    expect(sameNetwork).toEqual([202, 202, 202, 429]);
    expect((await submit(request, '2001:db8:5:7::1')).statusCode).toBe(202);
  });

  it("behind the console each browser is limited alone; an address claimed without the console's proof is not believed", async () => {
    const { consoleForwarding } = await loadServiceKeys(t.config);
    // Every request comes from the console's address, naming the browser it acts for.
    const consoleAddress = from();
    const viaConsole = (browser: string, key: Uint8Array = consoleForwarding) =>
      t.app.inject({
        method: 'POST',
        url: '/key-requests',
        payload: request,
        remoteAddress: consoleAddress,
        headers: consoleForwardingHeaders(key, browser),
      });
    const one = [];
    for (let i = 0; i < 4; i++) one.push((await viaConsole('203.0.113.7')).statusCode);
    expect(one).toEqual([202, 202, 202, 429]);
    expect((await viaConsole('203.0.113.8')).statusCode).toBe(202);
    // Proofs made without the service secret: each claims a fresh address, all count as the
    // console's own.
    const forged = [];
    for (let i = 1; i <= 4; i++) {
      forged.push((await viaConsole(`198.51.100.${i}`, randomBytes(32))).statusCode);
    }
    expect(forged).toEqual([202, 202, 202, 429]);
  });
});

describe('two business days', () => {
  it.each([
    ['Monday', '2026-11-23T10:00:00Z', '2026-11-25T10:00:00Z'],
    ['Thursday', '2026-11-26T10:00:00Z', '2026-11-30T10:00:00Z'],
    ['Friday', '2026-11-27T16:00:00Z', '2026-12-01T16:00:00Z'],
    ['Saturday', '2026-11-28T09:00:00Z', '2026-12-01T09:00:00Z'],
  ])('a request on a %s is due %s later', (_, from, due) => {
    expect(addBusinessDays(new Date(from), 2).toISOString()).toBe(new Date(due).toISOString());
  });
});
