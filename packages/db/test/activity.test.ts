import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../src/api-keys.ts';
import { createDatabase, type Database } from '../src/client.ts';
import {
  histogramPercentile,
  pruneActivity,
  recordHeartbeat,
  rollUpActivity,
  rollUpKeyUsage,
  sampleQueues,
} from '../src/statements/index.ts';
import { createTestDatabase, type TestDatabase } from '../src/testing.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

let database: TestDatabase;
let db: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDatabase(database.url);
});

afterAll(async () => {
  await db?.close();
  await database?.drop();
});

/** A whole UTC hour some hours before now. */
const hoursAgo = (hours: number) =>
  new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS - hours * HOUR_MS);

async function newKey(): Promise<string> {
  return (await issueApiKey(db.prisma, 'activity')).id;
}

async function file(apiKeyId: string, sizeBytes: number, uploadedAt: Date): Promise<string> {
  const row = await db.prisma.file.create({
    data: {
      apiKeyId,
      fileName: 'photo.jpg',
      contentType: 'image/jpeg',
      status: 'uploaded',
      sizeBytes,
      storageKey: `uploads/${randomUUID()}/photo.jpg`,
      createdAt: uploadedAt,
      uploadedAt,
    },
  });
  return row.id;
}

/** A job asked for at `createdAt` that ended `tookMs` later. */
async function finishedJob(
  apiKeyId: string,
  fileId: string,
  createdAt: Date,
  tookMs: number,
  errorCode?: string,
): Promise<void> {
  await db.prisma.watermarkJob.create({
    data: {
      apiKeyId,
      fileId,
      options: {},
      status: errorCode === undefined ? 'success' : 'failed',
      errorCode: errorCode ?? null,
      createdAt,
      finishedAt: new Date(createdAt.getTime() + tookMs),
    },
  });
}

describe('the activity rollup', () => {
  it('counts each hour by kind, outcome and code, with a histogram of durations', async () => {
    const key = await newKey();
    const hour = hoursAgo(3);
    const fileId = await file(key, 1_000, hour);
    const at = (minutes: number) => new Date(hour.getTime() + minutes * 60_000);
    await finishedJob(key, fileId, at(1), 50);
    await finishedJob(key, fileId, at(2), 2_000);
    await finishedJob(key, fileId, at(3), 2_000);
    await finishedJob(key, fileId, at(4), 400, 'image_unreadable');
    await finishedJob(key, fileId, at(5), 400, 'image_unreadable');
    await finishedJob(key, fileId, at(6), 400, 'chain_unavailable');
    // Asked for in the hour, ended in the next: it counts in the hour it ended.
    await finishedJob(key, fileId, at(59), 2 * 60_000);
    await db.prisma.watermarkJob.create({
      data: { apiKeyId: key, fileId, options: {}, status: 'processing', createdAt: at(7) },
    });
    await db.prisma.verification.create({
      data: { apiKeyId: key, status: 'success', createdAt: at(8), finishedAt: at(9) },
    });

    const rollUp = () =>
      db.transaction((sql) => rollUpActivity(sql, hour, new Date(hour.getTime() + 2 * HOUR_MS)));
    await rollUp();
    // Recomputing replaces the hours: a second pass (another worker, a later tick) adds nothing.
    await rollUp();

    const rows = await db.prisma.activityHour.findMany({
      where: { hour: { gte: hour } },
      orderBy: [{ hour: 'asc' }, { kind: 'asc' }, { outcome: 'asc' }, { code: 'asc' }],
    });
    expect(
      rows.map(({ hour: at, kind, outcome, code, count }) => [
        (at.getTime() - hour.getTime()) / HOUR_MS,
        kind,
        outcome,
        code,
        count,
      ]),
    ).toEqual([
      [0, 'verify', 'success', '', 1],
      [0, 'watermark', 'failed', 'chain_unavailable', 1],
      [0, 'watermark', 'failed', 'image_unreadable', 2],
      [0, 'watermark', 'success', '', 3],
      [1, 'watermark', 'success', '', 1],
    ]);
    const successes = rows.find((row) => row.kind === 'watermark' && row.outcome === 'success');
    // 50 ms in the first bucket (< 100 ms), two of 2 s in the fifth (1 s to 2.5 s).
    expect(successes?.durations).toEqual([1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(histogramPercentile(successes?.durations ?? [], 0.5)).toBeGreaterThanOrEqual(1_000);
    expect(histogramPercentile(successes?.durations ?? [], 0.5)).toBeLessThanOrEqual(2_500);
    expect(histogramPercentile([0, 0, 0], 0.5)).toBeNull();
  });

  it("counts each key's jobs, verifications, bytes and mints per UTC day", async () => {
    const key = await newKey();
    const other = await newKey();
    const today = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
    const yesterday = new Date(today.getTime() - DAY_MS);
    const fileA = await file(key, 1_500, new Date(yesterday.getTime() + 60_000));
    await file(key, 500, new Date(yesterday.getTime() + 120_000));
    const fileB = await file(other, 7, new Date(today.getTime() + 1_000));
    await finishedJob(key, fileA, new Date(yesterday.getTime() + 180_000), 10);
    await finishedJob(key, fileA, new Date(today.getTime() + 1_000), 10);
    await finishedJob(key, fileA, new Date(today.getTime() + 2_000), 10, 'image_unreadable');
    await finishedJob(other, fileB, new Date(today.getTime() + 3_000), 10);
    await db.prisma.mintCount.create({ data: { apiKeyId: key, day: today, count: 4 } });

    await db.transaction((sql) => rollUpKeyUsage(sql, yesterday));
    await db.transaction((sql) => rollUpKeyUsage(sql, today));

    const days = await db.prisma.keyUsageDay.findMany({
      where: { apiKeyId: key },
      orderBy: { day: 'asc' },
    });
    expect(
      days.map((day) => [
        day.day.getTime(),
        day.jobs,
        day.verifications,
        Number(day.bytes),
        day.mints,
      ]),
    ).toEqual([
      [yesterday.getTime(), 1, 0, 2_000, 0],
      [today.getTime(), 2, 0, 0, 4],
    ]);
  });

  it('keeps the deepest queue sample of the hour and forgets old hours', async () => {
    const key = await newKey();
    const now = new Date();
    const fileId = await file(key, 1, now);
    await sampleQueues(db.sql, now);
    const waiting = [1, 2, 3].map((minutes) => new Date(now.getTime() - minutes * 60_000));
    for (const createdAt of waiting) {
      await db.prisma.watermarkJob.create({
        data: { apiKeyId: key, fileId, options: {}, status: 'pending', createdAt },
      });
    }
    await sampleQueues(db.sql, now);
    await db.prisma.watermarkJob.updateMany({
      where: { apiKeyId: key },
      data: { status: 'processing' },
    });
    await sampleQueues(db.sql, now);
    const sample = await db.prisma.queueHour.findUniqueOrThrow({
      where: { hour_kind: { hour: hoursAgo(0), kind: 'watermark' } },
    });
    expect(sample.waiting).toBe(3);
    expect(sample.oldestAgeSeconds).toBe(180);

    const worker = { id: 'w1', host: 'here', pid: 1, startedAt: now };
    await recordHeartbeat(db.sql, worker, now);
    await db.prisma.activityHour.create({
      data: {
        hour: hoursAgo(24 * 9),
        kind: 'watermark',
        outcome: 'success',
        count: 1,
        durations: [],
      },
    });
    await pruneActivity(
      db.sql,
      new Date(now.getTime() - 8 * DAY_MS),
      new Date(now.getTime() - 90 * DAY_MS),
    );
    expect(await db.prisma.activityHour.count({ where: { hour: { lt: hoursAgo(24 * 8) } } })).toBe(
      0,
    );
    expect(await db.prisma.queueHour.count()).toBe(2);
    expect(await db.prisma.workerHeartbeat.count()).toBe(1);
  });
});
