import { createPrismaClient, type PrismaClient } from '@hallmark/db';
import { PrismaService } from '@hallmark/runtime';
import { createTestEnv } from '@hallmark/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActivityRollup } from '../src/activity/activity-rollup.ts';
import { uploadedFile } from './support/uploaded-file.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The rollup task against the real database: what it catches up on, the lock, the heartbeat. */
describe('the activity rollup task', () => {
  let testEnv: Awaited<ReturnType<typeof createTestEnv>>;
  let prisma: PrismaService;
  /** Another connection, to hold the rollup's lock as a second worker would. */
  let other: PrismaClient;

  beforeAll(async () => {
    testEnv = await createTestEnv('worker-test');
    prisma = new PrismaService(testEnv.config, testEnv.logger);
    other = createPrismaClient(testEnv.config.DATABASE_URL);
  });

  afterAll(async () => {
    await other?.$disconnect();
    await prisma?.onApplicationShutdown();
    await testEnv?.dispose();
  });

  async function finishedJob(endedAt: Date, errorCode?: string): Promise<void> {
    const file = await uploadedFile(prisma.client, endedAt);
    await prisma.client.watermarkJob.create({
      data: {
        apiKeyId: file.apiKeyId,
        fileId: file.fileId,
        options: {},
        status: errorCode === undefined ? 'success' : 'failed',
        errorCode: errorCode ?? null,
        createdAt: new Date(endedAt.getTime() - 1_000),
        finishedAt: endedAt,
      },
    });
  }

  const countOf = async (kind: string, outcome: string) =>
    (
      await prisma.client.activityHour.aggregate({
        where: { kind, outcome },
        _sum: { count: true },
      })
    )._sum.count ?? 0;

  it('catches up on the kept week first, then recomputes the recent hours', async () => {
    const now = new Date();
    // Ended three days ago, before this worker started: only the first pass reaches it.
    await finishedJob(new Date(now.getTime() - 3 * DAY_MS));
    await finishedJob(new Date(now.getTime() - 10 * 60_000));
    await finishedJob(new Date(now.getTime() - 5 * 60_000), 'image_unreadable');
    // Past the kept week: never counted.
    await finishedJob(new Date(now.getTime() - 9 * DAY_MS));

    const rollup = new ActivityRollup(testEnv.logger, prisma);
    const first = await rollup.rollUpOnce(now);
    expect(first.rolledUp).toBe(true);
    expect(await countOf('watermark', 'success')).toBe(2);
    expect(await countOf('watermark', 'failed')).toBe(1);

    await finishedJob(new Date(now.getTime() - 60_000));
    await rollup.rollUpOnce(new Date(now.getTime() + 1_000));
    expect(await countOf('watermark', 'success')).toBe(3);
    expect(await countOf('watermark', 'failed')).toBe(1);
    // Each key's day is counted too: four keys asked for a job in the kept days.
    expect(await prisma.client.keyUsageDay.count()).toBe(4);

    const heartbeats = await prisma.client.workerHeartbeat.findMany();
    expect(heartbeats).toHaveLength(1);
    expect(heartbeats[0]?.lastSeenAt.getTime()).toBe(now.getTime() + 1_000);
  });

  it('leaves the rollup to the worker holding the lock, and still says it is alive', async () => {
    const rollup = new ActivityRollup(testEnv.logger, prisma);
    const now = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS + 30_000);
    const report = await other.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('hallmark.activity-rollup'))`;
      return rollup.rollUpOnce(now);
    });
    expect(report.rolledUp).toBe(false);
    expect(await prisma.client.workerHeartbeat.count()).toBe(2);
    expect((await rollup.rollUpOnce(now)).rolledUp).toBe(true);
  });

  it('fills in only since another worker was last seen, and the week when none was', async () => {
    const now = new Date();
    // Five days ago: a rollup pass of that time would have counted it; none of this test ran.
    const ended = new Date(now.getTime() - 5 * DAY_MS);
    await finishedJob(ended);
    const hourOf = { hour: new Date(Math.floor(ended.getTime() / HOUR_MS) * HOUR_MS) };
    const rowsOfThatHour = () => prisma.client.activityHour.count({ where: hourOf });

    // The workers of the tests above were seen minutes ago: their passes covered the days.
    await new ActivityRollup(testEnv.logger, prisma).rollUpOnce(now);
    expect(await rowsOfThatHour()).toBe(0);

    // No worker on record (all gone for longer than the kept week): the week is recomputed.
    await prisma.client.workerHeartbeat.deleteMany();
    await new ActivityRollup(testEnv.logger, prisma).rollUpOnce(now);
    expect(await rowsOfThatHour()).toBeGreaterThan(0);
  });
});
