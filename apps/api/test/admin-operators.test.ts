import { createOperator } from '@hallmark/db';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';

const PROBLEMS = 'https://hallmark.dev/problems/';

describe('admins manage operators: disable, demote, sign out, reset; one admin always remains', () => {
  let t: TestApp;
  let admin: { cookie: string; csrf: string };
  let memberId: string;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_ANONYMOUS_PER_MINUTE: '1000' });
    await createOperator(t.prisma, 'lead@hallmark.example', 'admin', 'lead password');
    memberId = (await createOperator(t.prisma, 'member@hallmark.example', 'admin', 'member one'))
      .id;
    admin = await signIn('lead@hallmark.example', 'lead password');
  });

  afterAll(async () => {
    await t?.close();
  });

  async function signIn(email: string, password: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/session',
      payload: { email, password },
    });
    const cookie = String(res.headers['set-cookie'] ?? '').split(';')[0] ?? '';
    return {
      status: res.statusCode,
      cookie,
      csrf: res.statusCode === 201 ? (res.json().csrfToken as string) : '',
    };
  }

  const asAdmin = (method: 'PATCH' | 'POST', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf },
      ...(payload === undefined ? {} : { payload }),
    });
  const sessionOf = async (cookie: string) =>
    (await t.app.inject({ method: 'GET', url: '/admin/session', headers: { cookie } })).statusCode;

  function expectProblem(res: LightMyRequestResponse, status: number, slug: string) {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ type: `${PROBLEMS}${slug}` });
  }

  it('disabling ends the sessions at once and refuses sign-in; enabling lets the operator back', async () => {
    const member = await signIn('member@hallmark.example', 'member one');
    expect(await sessionOf(member.cookie)).toBe(200);
    const disabled = await asAdmin('PATCH', `/admin/operators/${memberId}`, { disabled: true });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json()).toMatchObject({ disabledAt: expect.any(Number), activeSessions: 0 });
    expect(await sessionOf(member.cookie)).toBe(401);
    expect((await signIn('member@hallmark.example', 'member one')).status).toBe(401);
    expect(
      (await asAdmin('PATCH', `/admin/operators/${memberId}`, { disabled: false })).json(),
    ).toMatchObject({ disabledAt: null });
    expect((await signIn('member@hallmark.example', 'member one')).status).toBe(201);
  });

  it('signing an operator out ends every session; a reset password replaces the old one', async () => {
    const first = await signIn('member@hallmark.example', 'member one');
    const second = await signIn('member@hallmark.example', 'member one');
    const out = await asAdmin('POST', `/admin/operators/${memberId}/sign-out`);
    expect(out.json()).toMatchObject({ activeSessions: 0 });
    expect([await sessionOf(first.cookie), await sessionOf(second.cookie)]).toEqual([401, 401]);

    const reset = await asAdmin('POST', `/admin/operators/${memberId}/password-reset`);
    const password = reset.json().password as string;
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect((await signIn('member@hallmark.example', 'member one')).status).toBe(401);
    expect((await signIn('member@hallmark.example', password)).status).toBe(201);
    // The audit log names each change, never the password.
    const audit = await t.prisma.auditEntry.findMany({
      where: { target: 'operator:member@hallmark.example', actor: 'lead@hallmark.example' },
      orderBy: { id: 'asc' },
    });
    expect(audit.map((entry) => entry.action)).toEqual([
      'operator.change',
      'operator.change',
      'operator.sign_out_all',
      'operator.password_reset',
    ]);
    expect(JSON.stringify(audit.map((entry) => [entry.target, entry.details]))).not.toContain(
      password,
    );
  });

  it('a demoted operator can no longer change anything; viewers do not see the operators', async () => {
    const member = await signIn('member@hallmark.example', (await resetMember()) ?? '');
    expect(
      (await asAdmin('PATCH', `/admin/operators/${memberId}`, { role: 'viewer' })).json(),
    ).toMatchObject({ role: 'viewer' });
    const viewer = await signIn('member@hallmark.example', (await resetMember()) ?? '');
    expect(member.status).toBe(201);
    const change = await t.app.inject({
      method: 'PATCH',
      url: `/admin/operators/${memberId}`,
      headers: { cookie: viewer.cookie, 'x-csrf-token': viewer.csrf },
      payload: { role: 'admin' },
    });
    expectProblem(change, 403, 'forbidden');
    expectProblem(
      await t.app.inject({
        method: 'GET',
        url: '/admin/operators',
        headers: { cookie: viewer.cookie },
      }),
      403,
      'forbidden',
    );
  });

  it('the last enabled admin cannot be demoted or disabled, by anyone; nothing changes', async () => {
    const list = await t.app.inject({
      method: 'GET',
      url: '/admin/operators',
      headers: { cookie: admin.cookie },
    });
    const lead = (list.json().items as Array<{ operatorId: string; email: string }>).find(
      (operator) => operator.email === 'lead@hallmark.example',
    );
    const before = await t.snapshot();
    for (const change of [{ role: 'viewer' }, { disabled: true }]) {
      expectProblem(
        await asAdmin('PATCH', `/admin/operators/${lead?.operatorId}`, change),
        409,
        'last-admin',
      );
    }
    expect(await t.snapshot()).toEqual(before);
    expectProblem(
      await asAdmin('PATCH', `/admin/operators/${memberId}`, {}),
      400,
      'validation-error',
    );
    expectProblem(
      await asAdmin('POST', '/admin/operators/8c1f4a0e-0000-4000-8000-000000000000/sign-out'),
      404,
      'not-found',
    );
  });

  async function resetMember(): Promise<string | undefined> {
    return (await asAdmin('POST', `/admin/operators/${memberId}/password-reset`)).json().password;
  }
});
