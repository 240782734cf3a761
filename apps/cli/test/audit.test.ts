import { hostname } from 'node:os';
import { createPrismaClient } from '@hallmark/db';
import { createTestDatabase, type TestDatabase } from '@hallmark/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/run-cli.ts';

function capture(env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { env, stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

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
});
