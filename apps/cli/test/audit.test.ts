import { hostname } from 'node:os';
import { createPrismaClient } from '@hallmark/db';
import { createTestDatabase, type TestDatabase } from '@hallmark/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/run-cli.ts';
import { capture } from './support/capture.ts';

describe('the audit log of what the CLI changes', () => {
  let database: TestDatabase;
  let prisma: ReturnType<typeof createPrismaClient>;

  beforeAll(async () => {
    database = await createTestDatabase();
    prisma = createPrismaClient(database.url);
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await database?.drop();
  });

  const env = () => ({
    DATABASE_URL: database.url,
    USER: 'ops',
    HALLMARK_ADMIN_PASSWORD: 'a long enough password',
  });
  const cli = async (...args: string[]) => {
    const run = capture(env());
    const code = await runCli(args, run.io);
    return { code, out: run.out() };
  };

  it('records key and operator changes as the system user, chained; tampering is found', async () => {
    const created = await cli('keys', 'create', '--name', 'newsroom');
    expect(created.code).toBe(0);
    const prefix = created.out.trim().slice(0, 11);
    expect((await cli('keys', 'revoke', prefix)).code).toBe(0);
    expect((await cli('admins', 'create', 'ops@hallmark.example', '--role', 'admin')).code).toBe(0);

    const entries = await prisma.auditEntry.findMany({ orderBy: { id: 'asc' } });
    expect(entries.map((e) => [e.action, e.target, e.actor, e.operatorId, e.address])).toEqual([
      ['api_key.create', `api_key:${prefix}`, 'cli:ops', null, hostname()],
      ['api_key.revoke', `api_key:${prefix}`, 'cli:ops', null, hostname()],
      ['operator.create', 'operator:ops@hallmark.example', 'cli:ops', null, hostname()],
    ]);
    // A refused change (the key is revoked already) records nothing.
    expect((await cli('keys', 'revoke', prefix)).code).toBe(1);
    expect(await prisma.auditEntry.count()).toBe(3);

    const intact = await cli('audit', 'verify');
    expect(intact.code).toBe(0);
    expect(intact.out).toMatch(/^intact: 3 entries, head [0-9a-f]{64}\n$/);

    // The log refuses to be changed, removed or emptied.
    const second = entries[1]?.id ?? 0n;
    for (const statement of [
      `UPDATE audit_entries SET target = 'api_key:someone_else' WHERE id = ${second}`,
      `DELETE FROM audit_entries WHERE id = ${second}`,
      'TRUNCATE audit_entries',
    ]) {
      await expect(prisma.$executeRawUnsafe(statement)).rejects.toThrow(/append-only/);
    }
    // The table's owner can set the triggers aside; the chain still tells.
    await prisma.$transaction([
      prisma.$executeRawUnsafe('ALTER TABLE audit_entries DISABLE TRIGGER USER'),
      prisma.$executeRawUnsafe(
        `UPDATE audit_entries SET target = 'api_key:someone_else' WHERE id = ${second}`,
      ),
      prisma.$executeRawUnsafe('ALTER TABLE audit_entries ENABLE TRIGGER USER'),
    ]);
    const broken = await cli('audit', 'verify');
    expect(broken.code).toBe(1);
    expect(broken.out).toContain(`BROKEN at entry ${second}`);
  });

  it('manages operator accounts, keeping one enabled admin, each change audited', async () => {
    expect((await cli('admins', 'create', 'lead@hallmark.example', '--role', 'admin')).code).toBe(
      0,
    );
    expect((await cli('admins', 'create', 'temp@hallmark.example', '--role', 'admin')).code).toBe(
      0,
    );
    expect((await cli('admins', 'disable', 'temp@hallmark.example')).code).toBe(0);
    expect((await cli('admins', 'disable', 'ops@hallmark.example')).code).toBe(0);
    const listed = await cli('admins', 'list');
    expect(listed.out).toContain('admin   disabled  temp@hallmark.example');
    expect(listed.out).toContain('admin   enabled   lead@hallmark.example');
    // lead is the last enabled admin now.
    const refused = await cli('admins', 'role', 'lead@hallmark.example', 'viewer');
    expect(refused.code).toBe(1);
    expect(
      (await prisma.operator.findUniqueOrThrow({ where: { email: 'lead@hallmark.example' } })).role,
    ).toBe('admin');
    expect((await cli('admins', 'enable', 'temp@hallmark.example')).code).toBe(0);
    expect((await cli('admins', 'role', 'lead@hallmark.example', 'viewer')).code).toBe(0);
    const reset = await cli('admins', 'reset', 'temp@hallmark.example');
    expect(reset.out.trim()).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect((await cli('admins', 'sign-out', 'temp@hallmark.example')).code).toBe(0);
    expect((await cli('admins', 'disable', 'nobody@hallmark.example')).code).toBe(1);

    const actions = await prisma.auditEntry.findMany({
      where: {
        target: { in: ['operator:temp@hallmark.example', 'operator:lead@hallmark.example'] },
      },
      orderBy: { id: 'asc' },
      select: { action: true, target: true },
    });
    expect(actions.map((a) => `${a.action} ${a.target}`)).toEqual([
      'operator.create operator:lead@hallmark.example',
      'operator.create operator:temp@hallmark.example',
      'operator.change operator:temp@hallmark.example',
      'operator.change operator:temp@hallmark.example',
      'operator.change operator:lead@hallmark.example',
      'operator.password_reset operator:temp@hallmark.example',
      'operator.sign_out_all operator:temp@hallmark.example',
    ]);
  });
});
