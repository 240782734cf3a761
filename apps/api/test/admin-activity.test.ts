import { randomUUID } from 'node:crypto';
import {
  createDatabase,
  createOperator,
  type Database,
  issueApiKey,
  recordHeartbeat,
  rollUpActivity,
  rollUpKeyUsage,
} from '@hallmark/db';
import type { AdminActivity, AdminKeyUsage } from '@hallmark/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/test-app.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const PROBLEMS = 'https://hallmark.dev/problems/';

/**
 * The charts' answers over rows the worker's rollup statements wrote from real jobs: every hour
 * of the range is there, counts land in the hour the work ended, failures carry their rates.
 */
describe('the admin activity and key usage', () => {
  let t: TestApp;
  let db: Database;
  let cookie = '';
  let prefix = '';
  /** The hour the jobs of two hours ago ended in. */
  let jobHour = 0;

  beforeAll(async () => {
    t = await startTestApp();
    db = createDatabase(t.config.DATABASE_URL);
    await createOperator(t.prisma, 'viewer@hallmark.example', 'viewer', 'staple paper clip');
    const session = await t.app.inject({
      method: 'POST',
      url: '/admin/session',
      payload: { email: 'viewer@hallmark.example', password: 'staple paper clip' },
    });
    cookie = String(session.headers['set-cookie'] ?? '').split(';')[0] ?? '';

    const key = await issueApiKey(t.prisma, 'charted');
    prefix = key.prefix;
    const thisHour = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    const file = await t.prisma.file.create({
      data: {
        apiKeyId: key.id,
        fileName: 'photo.jpg',
        contentType: 'image/jpeg',
        status: 'uploaded',
        sizeBytes: 4_096,
        storageKey: `uploads/${randomUUID()}/photo.jpg`,
        uploadedAt: new Date(),
      },
    });
    const job = (hoursAgo: number, errorCode?: string) =>
      t.prisma.watermarkJob.create({
        data: {
          apiKeyId: key.id,
          fileId: file.id,
          options: {},
          status: errorCode === undefined ? 'success' : 'failed',
          errorCode: errorCode ?? null,
          createdAt: new Date(thisHour - hoursAgo * HOUR_MS + 60_000),
          finishedAt: new Date(thisHour - hoursAgo * HOUR_MS + 61_500),
        },
      });
    jobHour = thisHour - 2 * HOUR_MS;
    await job(2);
    await job(2);
    await job(2, 'rpc_unreachable');
    await job(30);
    await t.prisma.mintCount.create({
      data: { apiKeyId: key.id, day: new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS), count: 3 },
    });
    await db.transaction(async (sql) => {
      await rollUpActivity(sql, new Date(thisHour - 48 * HOUR_MS), new Date(thisHour + HOUR_MS));
      await rollUpKeyUsage(sql, new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - 2 * DAY_MS));
    });
    await recordHeartbeat(
      db.sql,
      { id: 'host:1:a', host: 'host', pid: 1, startedAt: new Date() },
      new Date(),
    );
    await recordHeartbeat(
      db.sql,
      { id: 'host:2:b', host: 'host', pid: 2, startedAt: new Date(Date.now() - DAY_MS) },
      new Date(Date.now() - HOUR_MS),
    );
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    await t?.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

  it('answers every hour of the last day, with the hour a job ended in and its failures', async () => {
    const res = await get('/admin/activity');
    expect(res.statusCode, res.body).toBe(200);
    const activity = res.json() as AdminActivity;
    expect(activity.range).toBe('24h');
    expect(activity.hours).toHaveLength(24);
    const twoHoursAgo = activity.hours.find((hour) => hour.hour * 1000 === jobHour);
    expect(twoHoursAgo?.jobs).toEqual({ success: 2, failed: 1 });
    // 1.5 s each: the median lies in the 1 s to 2.5 s bucket.
    expect(twoHoursAgo?.jobP50Ms).toBeGreaterThanOrEqual(1_000);
    expect(twoHoursAgo?.jobP50Ms).toBeLessThanOrEqual(2_500);
    // The job of 30 hours ago is outside the day.
    expect(activity.hours.reduce((sum, hour) => sum + hour.jobs.success, 0)).toBe(2);
    expect(activity.failures).toEqual([
      { kind: 'watermark', code: 'rpc_unreachable', count: 1, rate: 1 / 3 },
    ]);
    expect(activity.chain.failures).toBe(1);
    expect(activity.workers.map((worker) => [worker.id, worker.live])).toEqual([
      ['host:1:a', true],
      ['host:2:b', false],
    ]);
  });

  it('answers 168 hours for a week, and refuses another range', async () => {
    const week = (await get('/admin/activity?range=7d')).json() as AdminActivity;
    expect(week.hours).toHaveLength(168);
    expect(week.hours.reduce((sum, hour) => sum + hour.jobs.success, 0)).toBe(3);
    const refused = await get('/admin/activity?range=30d');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ type: `${PROBLEMS}validation-error` });
  });

  it("answers a key's 30 days and its headroom; an unknown key is a 404", async () => {
    const res = await get(`/admin/api-keys/${prefix}/usage`);
    expect(res.statusCode, res.body).toBe(200);
    const usage = res.json() as AdminKeyUsage;
    expect(usage.days).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(usage.days.at(-1)?.day).toBe(today);
    expect(usage.days.reduce((sum, day) => sum + day.jobs, 0)).toBe(4);
    expect(usage.days.at(-1)?.bytes).toBe(4_096);
    expect(usage.days.at(-1)?.mints).toBe(3);
    expect(usage.quota).toMatchObject({
      mintsToday: 3,
      mintsPerDay: t.config.QUOTA_MINTS_PER_DAY,
      storedBytes: 4_096,
      rateLimitPerMinute: t.config.RATE_LIMIT_PER_MINUTE,
    });
    const missing = await get('/admin/api-keys/hm_aaaaaaaa/usage');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ type: `${PROBLEMS}not-found` });
  });
});
