import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createOperator, hashSessionToken } from '@hallmark/db';
import { consoleForwardingHeaders, loadServiceKeys } from '@hallmark/service-keys';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimUploadLink, pathOf, put, requestWatermark } from './support/flow.ts';
import { startUntilAnsweredOrBlocked } from './support/lock-wait.ts';
import { jpegPhoto } from './support/photos.ts';
import { startTestApp, type TestApp } from './support/test-app.ts';

const PROBLEMS = 'https://hallmark.dev/problems/';

describe('the admin API: operators sign in, viewers read, admins decide, every change audited', () => {
  let t: TestApp;
  let address = 0;
  const ip = () => {
    address++;
    return `10.7.${address >> 8}.${address & 255}`;
  };

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000' });
    await createOperator(t.prisma, 'admin@hallmark.example', 'admin', 'correct horse battery');
    await createOperator(t.prisma, 'viewer@hallmark.example', 'viewer', 'staple paper clip');
  });

  afterAll(async () => {
    await t?.close();
  });

  async function signIn(email: string, password: string, from = ip()) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/session',
      payload: { email, password },
      remoteAddress: from,
    });
    const cookie = String(res.headers['set-cookie'] ?? '').split(';')[0] ?? '';
    return { res, cookie, csrf: res.statusCode === 201 ? (res.json().csrfToken as string) : '' };
  }

  async function newKeyRequest() {
    const res = await t.app.inject({
      method: 'POST',
      url: '/key-requests',
      payload: {
        companyName: `Co ${address}`,
        purpose: 'Pictures.',
        contactName: 'Ada',
        contactEmail: 'ada@co.example',
      },
      remoteAddress: ip(),
    });
    return res.json() as { requestId: string; statusUrl: string };
  }

  /** The approval mail that carries this status link, if one was sent. */
  async function approvalMail(statusLink: string): Promise<string | undefined> {
    const outbox = join(t.config.HALLMARK_DATA_DIR, 'outbox');
    const mails = await Promise.all(
      (await readdir(outbox)).map((name) => readFile(join(outbox, name), 'utf8')),
    );
    return mails.find(
      (mail) => mail.includes('Your Hallmark API key is ready') && mail.includes(statusLink),
    );
  }

  function expectProblem(res: LightMyRequestResponse, status: number, slug: string) {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ type: `${PROBLEMS}${slug}` });
  }

  it('an admin signs in (httpOnly, SameSite cookie), approves with the CSRF token, and the audit log shows it', async () => {
    const { res, cookie, csrf } = await signIn('admin@hallmark.example', 'correct horse battery');
    expect(res.statusCode).toBe(201);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(res.json()).toMatchObject({ email: 'admin@hallmark.example', role: 'admin' });

    const request = await newKeyRequest();
    const list = await t.app.inject({
      method: 'GET',
      url: '/admin/key-requests?status=pending',
      headers: { cookie },
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((item: { requestId: string }) => item.requestId)).toContain(
      request.requestId,
    );

    const url = `/admin/key-requests/${request.requestId}/approve`;
    // Without the CSRF token nothing changes.
    expectProblem(
      await t.app.inject({ method: 'POST', url, headers: { cookie } }),
      403,
      'forbidden',
    );
    // Through the console: its address, and the browser's with the console's proof.
    const { consoleForwarding } = await loadServiceKeys(t.config);
    const approved = await t.app.inject({
      method: 'POST',
      url,
      remoteAddress: '10.7.255.1',
      headers: {
        cookie,
        'x-csrf-token': csrf,
        ...consoleForwardingHeaders(consoleForwarding, '203.0.113.50'),
      },
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({
      status: 'approved',
      decidedBy: 'admin@hallmark.example',
    });
    expectProblem(
      await t.app.inject({ method: 'POST', url, headers: { cookie, 'x-csrf-token': csrf } }),
      409,
      'already-decided',
    );
    // Approval made the key: listed at once, not yet collected; the mail repeats the link.
    const keyOf = async (prefix: string) =>
      (
        (
          await t.app.inject({
            method: 'GET',
            url: '/admin/api-keys?limit=100',
            headers: { cookie },
          })
        ).json().items as Array<{ prefix: string; awaitingCollection: boolean }>
      ).find((key) => key.prefix === prefix);
    const made = await t.prisma.keyRequest.findUniqueOrThrow({
      where: { id: request.requestId },
      include: { apiKey: true },
    });
    const prefix = made.apiKey?.prefix ?? '';
    expect(await keyOf(prefix)).toMatchObject({ awaitingCollection: true });
    expect(approved.json()).toMatchObject({ keyCollected: false });
    expect(await approvalMail(request.statusUrl)).toContain('Show my key');
    // The requester collects the key with the link's token.
    const collected = await t.app.inject({
      method: 'POST',
      url: pathOf(request.statusUrl).replace('?token=', '/key?token='),
    });
    expect(collected.json().apiKey).toMatch(/^hm_/);
    expect(collected.json().apiKeyPrefix).toBe(prefix);
    expect(await keyOf(prefix)).toMatchObject({ awaitingCollection: false });

    const audit = await t.app.inject({ method: 'GET', url: '/admin/audit', headers: { cookie } });
    expect(audit.json().items[0]).toMatchObject({
      operator: 'admin@hallmark.example',
      action: 'key_request.approve',
      target: `key_request:${request.requestId}`,
      details: { apiKey: prefix },
      address: '203.0.113.50',
    });
  });

  it('an admin re-issues a key its requester has not collected: the old one is revoked, the new one waits at the same link, audited', async () => {
    const admin = await signIn('admin@hallmark.example', 'correct horse battery');
    const headers = { cookie: admin.cookie, 'x-csrf-token': admin.csrf };
    const request = await newKeyRequest();
    await t.app.inject({
      method: 'POST',
      url: `/admin/key-requests/${request.requestId}/approve`,
      headers,
    });
    const row = await t.prisma.keyRequest.findUniqueOrThrow({
      where: { id: request.requestId },
      include: { apiKey: true },
    });
    const old = row.apiKey?.prefix ?? '';
    const reissue = (prefix: string, as = headers) =>
      t.app.inject({ method: 'POST', url: `/admin/api-keys/${prefix}/reissue`, headers: as });
    // A viewer may not.
    const viewer = await signIn('viewer@hallmark.example', 'staple paper clip');
    expectProblem(
      await reissue(old, { cookie: viewer.cookie, 'x-csrf-token': viewer.csrf }),
      403,
      'forbidden',
    );
    const done = await reissue(old);
    expect(done.statusCode, done.body).toBe(201);
    const fresh = done.json() as { prefix: string; awaitingCollection: boolean; apiKey?: string };
    expect(fresh.prefix).not.toBe(old);
    expect(fresh.awaitingCollection).toBe(true);
    expect(fresh).not.toHaveProperty('apiKey');
    const oldKey = await t.prisma.apiKey.findUniqueOrThrow({ where: { prefix: old } });
    expect(oldKey.revokedAt).not.toBeNull();
    // The same link now gives the new key, once.
    const collectUrl = pathOf(request.statusUrl).replace('?token=', '/key?token=');
    const collected = await t.app.inject({ method: 'POST', url: collectUrl });
    expect(collected.statusCode).toBe(201);
    expect(collected.json().apiKeyPrefix).toBe(fresh.prefix);
    expect(String(collected.json().apiKey).startsWith(`${fresh.prefix}_`)).toBe(true);
    // Collected, revoked, or made by hand: nothing to re-issue.
    expectProblem(await reissue(fresh.prefix), 409, 'key-not-available');
    expectProblem(await reissue(old), 409, 'key-not-available');
    const byHand = await t.app.inject({
      method: 'POST',
      url: '/admin/api-keys',
      headers,
      payload: { name: 'By hand' },
    });
    expectProblem(await reissue(byHand.json().prefix), 409, 'key-not-available');
    expectProblem(await reissue('hm_aaaaaaaa'), 404, 'not-found');
    const audit = (
      await t.app.inject({
        method: 'GET',
        url: '/admin/audit?limit=10',
        headers: { cookie: admin.cookie },
      })
    ).json().items as Array<{ action: string; target: string; details: unknown }>;
    expect(audit.find((entry) => entry.action === 'api_key.reissue')).toMatchObject({
      target: `api_key:${old}`,
      details: { replacedBy: fresh.prefix, keyRequest: request.requestId },
    });
  });

  it('a session unused for ADMIN_SESSION_IDLE_MINUTES has ended; one in use goes on', async () => {
    const { cookie } = await signIn('viewer@hallmark.example', 'staple paper clip');
    const session = () =>
      t.app.inject({ method: 'GET', url: '/admin/session', headers: { cookie } });
    expect((await session()).statusCode).toBe(200);
    const tokenHash = hashSessionToken(cookie.replace(/^hallmark_session=/, ''));
    // Used 29 minutes ago: still live, and marked seen now.
    await t.prisma.operatorSession.update({
      where: { tokenHash },
      data: { lastSeenAt: new Date(Date.now() - 29 * 60_000) },
    });
    expect((await session()).statusCode).toBe(200);
    const seen = await t.prisma.operatorSession.findUniqueOrThrow({ where: { tokenHash } });
    expect(Date.now() - seen.lastSeenAt.getTime()).toBeLessThan(60_000);
    // Unused for 31 minutes: ended, well before its 12 hours.
    await t.prisma.operatorSession.update({
      where: { tokenHash },
      data: { lastSeenAt: new Date(Date.now() - 31 * 60_000) },
    });
    expectProblem(await session(), 401, 'unauthorized');
  });

  it('a viewer reads but cannot decide: the API refuses and nothing changes', async () => {
    const { cookie, csrf } = await signIn('viewer@hallmark.example', 'staple paper clip');
    const request = await newKeyRequest();
    const list = await t.app.inject({
      method: 'GET',
      url: '/admin/key-requests',
      headers: { cookie },
    });
    expect(list.statusCode).toBe(200);
    const refused = await t.app.inject({
      method: 'POST',
      url: `/admin/key-requests/${request.requestId}/reject`,
      headers: { cookie, 'x-csrf-token': csrf },
      payload: { reason: 'No.' },
    });
    expectProblem(refused, 403, 'forbidden');
    const row = await t.prisma.keyRequest.findUniqueOrThrow({ where: { id: request.requestId } });
    expect(row.status).toBe('pending');
    // A viewer may still sign itself out; the session then ends.
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/admin/session',
      headers: { cookie, 'x-csrf-token': csrf },
    });
    expect(out.statusCode).toBe(204);
    expectProblem(
      await t.app.inject({ method: 'GET', url: '/admin/session', headers: { cookie } }),
      401,
      'unauthorized',
    );
  });

  it('ten tries per email and address, then 429 alike for an operator and a stranger; the operator still signs in from elsewhere', async () => {
    await createOperator(t.prisma, 'target@hallmark.example', 'admin', 'the right one');
    const tries = async (email: string, password: string, from: string) => {
      const answers = [];
      for (let i = 0; i < 11; i++) answers.push((await signIn(email, password, from)).res);
      return answers;
    };
    const operator = await tries('target@hallmark.example', 'guess', ip());
    const stranger = await tries('nobody@hallmark.example', 'guess', ip());
    // The same answers, word for word: nothing tells which email is an operator's.
    // (The wait a 429 names counts down between the two series.)
    const shape = (res: LightMyRequestResponse) => [
      res.statusCode,
      String(res.json().detail).replace(/retry in \d+ s/, 'retry in N s'),
    ];
    expect(operator.map(shape)).toEqual(stranger.map(shape));
    expect(operator.map((res) => res.statusCode)).toEqual([...Array(10).fill(401), 429]);
    expectProblem(operator[10] as LightMyRequestResponse, 429, 'rate-limited');
    expect(Number(operator[10]?.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not locked out by those guesses.
    expect((await signIn('target@hallmark.example', 'the right one')).res.statusCode).toBe(201);

    const { bearer } = await t.newClient();
    expectProblem(
      await t.app.inject({
        method: 'GET',
        url: '/admin/key-requests',
        headers: { authorization: bearer },
      }),
      401,
      'unauthorized',
    );
  });

  it('fifty failures from many addresses, even sent at once, lock the account; it then answers as a stranger does', async () => {
    await createOperator(t.prisma, 'parallel@hallmark.example', 'admin', 'the right one');
    const guesses = await Promise.all(
      Array.from({ length: 60 }, () => signIn('parallel@hallmark.example', 'guess')),
    );
    expect(new Set(guesses.map((guess) => guess.res.statusCode))).toEqual(new Set([401]));
    const operator = await t.prisma.operator.findUniqueOrThrow({
      where: { email: 'parallel@hallmark.example' },
    });
    expect(operator.lockedUntil?.getTime()).toBeGreaterThan(Date.now());
    const locked = (await signIn('parallel@hallmark.example', 'the right one')).res;
    const stranger = (await signIn('nobody-else@hallmark.example', 'the right one')).res;
    expectProblem(locked, 401, 'unauthorized');
    expect(locked.json()).toEqual(stranger.json());
    expect(locked.headers['retry-after']).toBeUndefined();
  });

  it('an admin makes a key (shown once), it works, is revoked, the API refuses it, and the audit log has both', async () => {
    const { cookie, csrf } = await signIn('admin@hallmark.example', 'correct horse battery');
    const headers = { cookie, 'x-csrf-token': csrf };
    const made = await t.app.inject({
      method: 'POST',
      url: '/admin/api-keys',
      headers,
      payload: { name: 'Newsroom' },
    });
    expect(made.statusCode).toBe(201);
    // The key is shown once: no cache may keep the answer.
    expect(made.headers['cache-control']).toBe('no-store');
    const { apiKey, prefix } = made.json() as { apiKey: string; prefix: string };
    const use = () =>
      t.app.inject({
        method: 'POST',
        url: '/auth/token',
        headers: { authorization: `Bearer ${apiKey}` },
      });
    expect((await use()).statusCode).toBe(201);
    const listed = await t.app.inject({
      method: 'GET',
      url: '/admin/api-keys?limit=100',
      headers: { cookie },
    });
    expect(listed.body).not.toContain(apiKey);
    expect(listed.json().items.map((item: { prefix: string }) => item.prefix)).toContain(prefix);
    const revoked = await t.app.inject({
      method: 'POST',
      url: `/admin/api-keys/${prefix}/revoke`,
      headers,
    });
    expect(revoked.json().revokedAt).toEqual(expect.any(Number));
    expectProblem(await use(), 401, 'unauthorized');
    const audit = (
      await t.app.inject({ method: 'GET', url: '/admin/audit?limit=2', headers: { cookie } })
    ).json();
    expect(audit.items.map((item: { action: string }) => item.action)).toEqual([
      'api_key.revoke',
      'api_key.create',
    ]);
  });

  it("jobs: every key's, filtered, with before/after links; a failed one is retried; the overview counts them", async () => {
    const { cookie, csrf } = await signIn('admin@hallmark.example', 'correct horse battery');
    const { bearer } = await t.newClient('jobs client');
    const link = await claimUploadLink(t, bearer);
    expect((await put(t, link.uploadLink, jpegPhoto, 'image/jpeg')).statusCode).toBe(200);
    const accepted = await requestWatermark(t, bearer, {
      fileId: link.fileId,
      options: { watermarkType: ['c2pa'] },
    });
    const { requestId } = accepted.json() as { requestId: string };
    await t.prisma.watermarkJob.update({
      where: { id: requestId },
      data: {
        status: 'failed',
        errorCode: 'invalid_image',
        errorMessage: 'x',
        finishedAt: new Date(),
        attempts: 5,
      },
    });
    const list = await t.app.inject({
      method: 'GET',
      url: '/admin/jobs?status=failed&technique=c2pa',
      headers: { cookie },
    });
    expect(list.json().items.map((job: { requestId: string }) => job.requestId)).toContain(
      requestId,
    );
    const none = await t.app.inject({
      method: 'GET',
      url: '/admin/jobs?technique=invisible',
      headers: { cookie },
    });
    expect(none.json().items.map((job: { requestId: string }) => job.requestId)).not.toContain(
      requestId,
    );
    const detail = (
      await t.app.inject({ method: 'GET', url: `/admin/jobs/${requestId}`, headers: { cookie } })
    ).json();
    expect(detail).toMatchObject({
      status: 'failed',
      errorCode: 'invalid_image',
      retryable: false,
      contentType: 'image/jpeg',
      outputUrl: null,
    });
    const before = await t.app.inject({ method: 'GET', url: pathOf(detail.inputUrl) });
    expect(before.statusCode).toBe(200);
    expect(before.rawPayload.length).toBe(jpegPhoto.length);

    const overview = (
      await t.app.inject({ method: 'GET', url: '/admin/overview', headers: { cookie } })
    ).json();
    expect(overview.failuresLast24h).toContainEqual({
      code: 'invalid_image',
      count: expect.any(Number),
    });
    expect(overview.ready).toBe(true);

    const retry = () =>
      t.app.inject({
        method: 'POST',
        url: `/admin/jobs/${requestId}/retry`,
        headers: { cookie, 'x-csrf-token': csrf },
      });
    // The picture itself failed it: another run would fail the same way.
    const refused = await retry();
    expectProblem(refused, 409, 'job-not-retryable');
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.json().detail).toContain('invalid_image');
    expect(
      await t.prisma.watermarkJob.findUniqueOrThrow({ where: { id: requestId } }),
    ).toMatchObject({ status: 'failed', errorCode: 'invalid_image' });
    // A node that was away may be back: that failure runs again.
    await t.prisma.watermarkJob.update({
      where: { id: requestId },
      data: { errorCode: 'ipfs_unreachable' },
    });
    const listed = await t.app.inject({
      method: 'GET',
      url: '/admin/jobs?status=failed',
      headers: { cookie },
    });
    expect(
      listed.json().items.find((job: { requestId: string }) => job.requestId === requestId),
    ).toMatchObject({ errorCode: 'ipfs_unreachable', retryable: true });
    expect((await retry()).json()).toMatchObject({
      status: 'pending',
      attempts: 0,
      errorCode: null,
      retryable: false,
    });
    expectProblem(await retry(), 409, 'already-decided');
  });

  it("a key's own rate limit is what limits it, through its access tokens too", async () => {
    const { cookie, csrf } = await signIn('admin@hallmark.example', 'correct horse battery');
    const { bearer, prefix } = await t.newClient('limited');
    const set = await t.app.inject({
      method: 'PUT',
      url: `/admin/api-keys/${prefix}/rate-limit`,
      headers: { cookie, 'x-csrf-token': csrf },
      payload: { rateLimitPerMinute: 2 },
    });
    expect(set.json()).toMatchObject({ prefix, rateLimitPerMinute: 2 });
    const token = (
      await t.app.inject({ method: 'POST', url: '/auth/token', headers: { authorization: bearer } })
    ).json().accessToken as string;
    const viaToken = await t.app.inject({
      method: 'GET',
      url: '/watermark/8c1f4a0e-0000-4000-8000-000000000000',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(viaToken.statusCode).toBe(404);
    expect(viaToken.headers['ratelimit-limit']).toBe('2');
    const third = await t.app.inject({
      method: 'POST',
      url: '/auth/token',
      headers: { authorization: bearer },
    });
    expectProblem(third, 429, 'rate-limited');
  });

  it('the audit log is append-only: changes, removals and truncation are refused', async () => {
    const before = await t.prisma.auditEntry.findMany();
    expect(before.length).toBeGreaterThan(0);
    for (const statement of [
      `UPDATE audit_entries SET action = 'tampered'`,
      'DELETE FROM audit_entries',
      'TRUNCATE audit_entries',
    ]) {
      await expect(t.prisma.$executeRawUnsafe(statement)).rejects.toThrow(/append-only/);
    }
    expect(await t.prisma.auditEntry.findMany()).toEqual(before);
  });

  it('sign-ins, failed ones and sign-outs are audited with the address', async () => {
    const from = ip();
    expect((await signIn('admin@hallmark.example', 'not the password', from)).res.statusCode).toBe(
      401,
    );
    expect((await signIn('stranger@hallmark.example', 'whatever', from)).res.statusCode).toBe(401);
    const { cookie, csrf } = await signIn('admin@hallmark.example', 'correct horse battery', from);
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/admin/session',
      headers: { cookie, 'x-csrf-token': csrf },
      remoteAddress: from,
    });
    expect(out.statusCode).toBe(204);
    const entries = await t.prisma.auditEntry.findMany({
      where: { address: from },
      orderBy: { id: 'asc' },
    });
    expect(entries.map((e) => [e.action, e.actor, e.target, e.details])).toEqual([
      [
        'operator.sign_in_failed',
        'anonymous',
        'operator:admin@hallmark.example',
        { reason: 'wrong_password' },
      ],
      [
        'operator.sign_in_failed',
        'anonymous',
        'operator:stranger@hallmark.example',
        { reason: 'unknown_email' },
      ],
      ['operator.sign_in', 'admin@hallmark.example', 'operator:admin@hallmark.example', {}],
      ['operator.sign_out', 'admin@hallmark.example', 'operator:admin@hallmark.example', {}],
    ]);
  });

  it('a change commits with its audit entry, never before it', async () => {
    const { cookie, csrf } = await signIn('admin@hallmark.example', 'correct horse battery');
    const headers = { cookie, 'x-csrf-token': csrf };
    const made = await t.app.inject({
      method: 'POST',
      url: '/admin/api-keys',
      headers,
      payload: { name: 'audited' },
    });
    const prefix = made.json().prefix as string;
    const revokedAt = async () =>
      (await t.prisma.apiKey.findUniqueOrThrow({ where: { prefix } })).revokedAt;
    // Hold the audit log (as a slow writer of another entry would) while the key is revoked.
    let revocation: Promise<unknown> | undefined;
    await t.prisma.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('hallmark.audit-chain'))`;
        ({ running: revocation } = await startUntilAnsweredOrBlocked(
          t.prisma,
          () => t.app.inject({ method: 'POST', url: `/admin/api-keys/${prefix}/revoke`, headers }),
          'the revocation to finish or wait for the audit log',
        ));
        // Its entry cannot be written yet, so neither is the change.
        expect(await revokedAt()).toBeNull();
      },
      { timeout: 60_000 },
    );
    expect(((await revocation) as LightMyRequestResponse).statusCode).toBe(200);
    expect(await revokedAt()).not.toBeNull();
  });

  it('pages with a stable cursor', async () => {
    const { cookie } = await signIn('admin@hallmark.example', 'correct horse battery');
    for (let i = 0; i < 3; i++) await newKeyRequest();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/admin/key-requests?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`;
      const page = (await t.app.inject({ method: 'GET', url, headers: { cookie } })).json();
      seen.push(...page.items.map((item: { requestId: string }) => item.requestId));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(await t.prisma.keyRequest.count());
    // Cursors a client crafted: not base64 of ours, an id that is no uuid, a date the database
    // cannot hold. Each is a 400 on every paged list, never a 500.
    const crafted = [
      'nonsense',
      Buffer.from('2026-01-01T00:00:00.000Z|not-a-uuid').toString('base64url'),
      Buffer.from(`+275760-09-13T00:00:00.000Z|${crypto.randomUUID()}`).toString('base64url'),
    ];
    for (const list of ['key-requests', 'api-keys', 'jobs', 'webhooks', 'nfts', 'ipfs-records']) {
      for (const bad of crafted) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/admin/${list}?cursor=${bad}`,
          headers: { cookie },
        });
        expect(res.statusCode, `/admin/${list} with ${bad}: ${res.body}`).not.toBe(500);
        expectProblem(res, 400, 'validation-error');
      }
    }
    for (const bound of ['from', 'to']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/admin/jobs?${bound}=1000000000000000`,
        headers: { cookie },
      });
      expectProblem(res, 400, 'validation-error');
    }
  });
});
