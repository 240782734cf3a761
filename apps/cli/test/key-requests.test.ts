import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { secretSealer } from '@hallmark/config';
import {
  createKeyRequest,
  createPrismaClient,
  type PrismaClient,
  verifyPassword,
} from '@hallmark/db';
import { createTestDatabase, type TestDatabase } from '@hallmark/db/testing';
import { loadServiceKeys } from '@hallmark/service-keys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/run-cli.ts';
import { capture } from './support/capture.ts';

describe('hallmark key-requests', () => {
  const SECRET = 'a service secret of at least thirty-two characters';
  let sealer: ReturnType<typeof secretSealer>;
  let database: TestDatabase;
  let prisma: PrismaClient;
  let dataDir: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    prisma = createPrismaClient(database.url);
    dataDir = await mkdtemp(join(tmpdir(), 'hallmark-cli-mail-'));
    const keys = await loadServiceKeys({ HALLMARK_SECRET: SECRET, HALLMARK_DATA_DIR: dataDir });
    sealer = secretSealer(keys.secretSealing);
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const newRequest = (companyName: string, dueAt: Date) =>
    createKeyRequest(prisma, {
      companyName,
      purpose: 'News pictures.',
      contactName: 'Ada',
      contactEmail: `ada@${companyName.toLowerCase()}.example`,
      website: null,
      expectedVolume: null,
      tokenHash: `${companyName}-hash`,
      sealedToken: sealer.seal(`${companyName}-token`),
      dueAt,
    });

  it('lists pending requests with the overdue marked, approves and rejects them, and mails the requester', async () => {
    const env = {
      DATABASE_URL: database.url,
      HALLMARK_DATA_DIR: dataDir,
      HALLMARK_SECRET: SECRET,
      ADMIN_PUBLIC_URL: 'https://console.hallmark.example',
    };
    const late = await newRequest('Late', new Date(Date.now() - 3_600_000));
    const fresh = await newRequest('Fresh', new Date(Date.now() + 86_400_000));

    const listed = capture(env);
    expect(await runCli(['key-requests', 'list', '--json'], listed.io)).toBe(0);
    const rows = JSON.parse(listed.out()) as Array<{ id: string; overdue: boolean }>;
    expect(rows.map((row) => [row.id, row.overdue])).toEqual([
      [late.id, true],
      [fresh.id, false],
    ]);

    expect(await runCli(['key-requests', 'approve', late.id], capture(env).io)).toBe(0);
    const noReason = capture(env);
    expect(await runCli(['key-requests', 'reject', fresh.id], noReason.io)).toBe(2);
    expect(
      await runCli(
        ['key-requests', 'reject', fresh.id, '--reason', 'Not a press agency.'],
        capture(env).io,
      ),
    ).toBe(0);
    // Decided already: nothing changes.
    expect(await runCli(['key-requests', 'approve', fresh.id], capture(env).io)).toBe(1);

    const after = await prisma.keyRequest.findMany({ orderBy: { createdAt: 'asc' } });
    expect(after.map((row) => [row.status, row.reason])).toEqual([
      ['approved', null],
      ['rejected', 'Not a press agency.'],
    ]);
    const outbox = join(dataDir, 'outbox');
    const mails = await Promise.all(
      (await readdir(outbox)).map((name) => readFile(join(outbox, name), 'utf8')),
    );
    // Approval made the key, sealed under the service's secret until collected; the mail
    // repeats the status link (the console's page, with ADMIN_PUBLIC_URL).
    const approved = await prisma.keyRequest.findUniqueOrThrow({
      where: { id: late.id },
      include: { apiKey: true },
    });
    expect(approved.apiKey?.prefix).toMatch(/^hm_/);
    expect(sealer.open(approved.sealedApiKey ?? '')).toMatch(
      new RegExp(`^${approved.apiKey?.prefix}_`),
    );
    const approvalMail = mails.find((mail) => mail.includes('To: ada@late.example'));
    expect(approvalMail).toContain('approved');
    expect(approvalMail).toContain(
      `https://console.hallmark.example/request-key/${late.id}?token=Late-token`,
    );
    expect(mails.find((mail) => mail.includes('To: ada@fresh.example'))).toContain(
      'Not a press agency.',
    );
  });
});

describe('hallmark admins', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('creates an operator with a generated password shown once, stored only as a scrypt hash', async () => {
    const env = { DATABASE_URL: database.url };
    const created = capture(env);
    expect(
      await runCli(['admins', 'create', 'ops@hallmark.example', '--role', 'admin'], created.io),
    ).toBe(0);
    const password = created.out().trim();
    expect(password.length).toBeGreaterThanOrEqual(20);
    const prisma = createPrismaClient(database.url);
    try {
      const row = await prisma.operator.findUniqueOrThrow({
        where: { email: 'ops@hallmark.example' },
      });
      expect(row.role).toBe('admin');
      expect(row.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
      expect(row.passwordHash).not.toContain(password);
      expect(await verifyPassword(password, row.passwordHash)).toBe(true);
    } finally {
      await prisma.$disconnect();
    }
    expect(await runCli(['admins', 'create', 'x@y.z', '--role', 'root'], capture(env).io)).toBe(2);
  });
});
