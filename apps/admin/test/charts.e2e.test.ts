import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createDatabase,
  createOperator,
  type Database,
  issueApiKey,
  type Prisma,
  rollUpActivity,
  rollUpKeyUsage,
} from '@hallmark/db';
import { HallmarkClient, watermarkFile } from '@hallmark/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openContext } from './support/browser.ts';
import { type RunningConsole, startConsole } from './support/console.ts';
import { screenshot } from './support/screenshots.ts';

const photo = readFileSync(join(import.meta.dirname, '../../../fixtures/c2pa/no_manifest.jpg'));
const OPERATOR = { email: 'charts@example.com', password: 'charts password 42' };
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const FAILURES = ['image_too_small', 'ipfs_unreachable', 'rpc_unreachable'] as const;

let running: RunningConsole;
let browser: Browser;
let db: Database;
let prefix = '';
let apiKey = '';
/** Jobs the history holds that succeeded in the last 24 hours, before the live one. */
let seededSuccessesToday = 0;
/** Webhook attempts the history holds that failed in the last 7 days. */
let seededWebhookFailures = 0;

/**
 * A week of webhook deliveries to one endpoint of the key, every two hours, settled long ago:
 * most answered 200, some 500, some never connected. The endpoint is disabled, so the live job's
 * event is not sent to it and the counts stay as seeded.
 */
async function seedWebhookLog(
  service: RunningConsole['service'],
  apiKeyId: string,
  thisHour: number,
): Promise<void> {
  const endpoint = await service.prisma.webhookEndpoint.create({
    data: {
      apiKeyId,
      url: 'https://hooks.example.com/catalogue',
      sealedSecret: 'never used: every delivery is settled',
      disabledAt: new Date(thisHour),
      disabledReason: 'seeded history',
    },
  });
  const events: Prisma.WebhookEventCreateManyInput[] = [];
  const deliveries: Prisma.WebhookDeliveryCreateManyInput[] = [];
  const attempts: Prisma.WebhookAttemptCreateManyInput[] = [];
  for (let hoursAgo = 2; hoursAgo < 7 * 24 - 2; hoursAgo += 2) {
    const at = new Date(thisHour - hoursAgo * HOUR_MS + 5 * 60_000);
    const eventId = `msg_seed_${hoursAgo}`;
    const deliveryId = randomUUID();
    const statusCode = hoursAgo % 26 === 0 ? 500 : hoursAgo % 34 === 0 ? null : 200;
    if (statusCode !== 200) seededWebhookFailures++;
    events.push({
      id: eventId,
      apiKeyId,
      type: 'job.completed',
      data: {},
      createdAt: at,
      dispatchedAt: at,
    });
    deliveries.push({
      id: deliveryId,
      eventId,
      endpointId: endpoint.id,
      status: statusCode === 200 ? 'succeeded' : 'failed',
      attempts: 1,
      nextAttemptAt: null,
      createdAt: at,
    });
    attempts.push({
      deliveryId,
      attempt: 1,
      startedAt: at,
      statusCode,
      latencyMs: 40 + (hoursAgo % 7) * 30,
      error: statusCode === null ? 'connect ECONNREFUSED' : null,
    });
  }
  await service.prisma.webhookEvent.createMany({ data: events });
  await service.prisma.webhookDelivery.createMany({ data: deliveries });
  await service.prisma.webhookAttempt.createMany({ data: attempts });
}

/**
 * A month of a key's history as rows, as clients would have left them: jobs every three hours
 * (more by day than by night, a few failing), a file uploaded each day, NFT jobs counted, a
 * week of webhook deliveries; then
 * rolled up by the worker's own statements, under the worker's lock, so the charts have a past.
 */
async function seedHistory(service: RunningConsole['service']): Promise<void> {
  const key = await issueApiKey(service.prisma, 'Acme charts');
  prefix = key.prefix;
  apiKey = key.plaintext;
  const now = Date.now();
  const thisHour = Math.floor(now / HOUR_MS) * HOUR_MS;
  const jobs: Prisma.WatermarkJobCreateManyInput[] = [];
  // Failures take the codes in turn, so any week holds each (which hours are seeded depends on
  // the hour the test runs at).
  let failures = 0;
  for (let day = 29; day >= 0; day--) {
    const dayStart = Math.floor(now / DAY_MS) * DAY_MS - day * DAY_MS;
    const file = await service.prisma.file.create({
      data: {
        apiKeyId: key.id,
        fileName: `catalogue-${day}.jpg`,
        contentType: 'image/jpeg',
        status: 'uploaded',
        sizeBytes: 1_500_000 + (day % 7) * 400_000,
        storageKey: `uploads/seed-${day}/catalogue.jpg`,
        createdAt: new Date(dayStart),
        uploadedAt: new Date(dayStart),
      },
    });
    if ((day * 5) % 3 !== 1) {
      await service.prisma.mintCount.create({
        data: { apiKeyId: key.id, day: new Date(dayStart), count: 1 + (day % 4) },
      });
    }
    for (let hour = 0; hour < 24; hour += 3) {
      const at = dayStart + hour * HOUR_MS;
      // Nothing in the current hour (the live job goes there) nor around the day's edge, so the
      // day's count is the same whichever hour the page is rendered in.
      if (at >= thisHour || Math.abs(at - (thisHour - 23 * HOUR_MS)) <= HOUR_MS) continue;
      const busy = hour >= 9 && hour <= 18 ? 4 : 1;
      for (let n = 0; n < busy + ((day + hour) % 3); n++) {
        const failed = (day + hour + n) % 11 === 0;
        const tookMs = 900 + ((day * 31 + hour * 7 + n * 13) % 20) * 450;
        const createdAt = new Date(at + n * 60_000);
        jobs.push({
          apiKeyId: key.id,
          fileId: file.id,
          options: { watermarkType: ['c2pa'] },
          status: failed ? 'failed' : 'success',
          errorCode: failed ? FAILURES[failures++ % FAILURES.length] : null,
          createdAt,
          finishedAt: new Date(createdAt.getTime() + tookMs),
        });
        if (!failed && createdAt.getTime() + tookMs >= thisHour - 23 * HOUR_MS) {
          seededSuccessesToday++;
        }
      }
    }
  }
  await service.prisma.watermarkJob.createMany({ data: jobs });
  await seedWebhookLog(service, key.id, thisHour);
  await db.transaction(async (sql) => {
    await sql.query("SELECT pg_advisory_xact_lock(hashtext('hallmark.activity-rollup'))");
    await rollUpActivity(sql, new Date(thisHour - 8 * DAY_MS), new Date(thisHour + HOUR_MS));
    await rollUpKeyUsage(sql, new Date(Math.floor(now / DAY_MS) * DAY_MS - 29 * DAY_MS));
  });
}

/** The text of the jobs chart's description: what a screen reader says in place of it. */
async function jobsDescription(page: Page): Promise<string> {
  return (await page.locator('#jobs-desc').textContent()) ?? '';
}

beforeAll(async () => {
  running = await startConsole();
  db = createDatabase(running.service.env.DATABASE_URL ?? '');
  await createOperator(running.service.prisma, OPERATOR.email, 'viewer', OPERATOR.password);
  await seedHistory(running.service);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await db?.close();
  await running?.close();
});

describe('the console charts in Chromium', () => {
  it("charts the overview from the worker's rollup, over a day and a week, and a key's usage", async () => {
    const context = await openContext(browser, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${running.url}/`);
    await page.waitForURL(`${running.url}/sign-in`);
    await page.getByLabel('Email').fill(OPERATOR.email);
    await page.getByLabel('Password').fill(OPERATOR.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${running.url}/`);

    // The running worker says it is alive, and every chart is a picture with a name.
    await expect.poll(() => page.getByTestId('workers').textContent()).toContain('live');
    for (const name of [
      'Watermark jobs ended per hour (UTC)',
      'Time from request to end of a job, p50 and p95',
      'Jobs and verifications waiting, most at once per hour',
      'Longest wait of a queued one, per hour',
      'Webhook delivery attempts per hour',
    ]) {
      expect(await page.getByRole('img', { name }).count(), name).toBe(1);
    }
    expect(await jobsDescription(page)).toContain(`${seededSuccessesToday} succeeded`);
    // The numbers behind a chart are in its table: 24 hours, one row each.
    expect(await page.getByTestId('chart-jobs').locator('tbody tr').count()).toBe(24);

    // A job run now through the API and the worker is rolled up by the worker's next pass, and
    // the page, rendered afresh on each visit, counts it.
    const client = new HallmarkClient({ baseUrl: running.service.baseUrl, token: apiKey });
    const marked = await watermarkFile(
      client,
      photo,
      { watermarkType: ['c2pa'] },
      { contentType: 'image/jpeg', fileName: 'photo.jpg' },
    );
    expect(marked.job.status).toBe('success');
    const { finishedAt } = await running.service.prisma.watermarkJob.findUniqueOrThrow({
      where: { id: marked.job.requestId },
    });
    const endedHour = new Date(Math.floor((finishedAt?.getTime() ?? 0) / HOUR_MS) * HOUR_MS);
    await expect
      .poll(() =>
        running.service.prisma.activityHour.count({
          where: { kind: 'watermark', outcome: 'success', hour: endedHour },
        }),
      )
      .toBe(1);
    await page.reload();
    expect(await jobsDescription(page)).toContain(`${seededSuccessesToday + 1} succeeded`);

    // The week, by a link (no script needed): 168 hours, the failures by code with their rates.
    await page.getByRole('link', { name: 'Last 7 days' }).click();
    await page.waitForURL(`${running.url}/?range=7d`);
    expect(await page.getByRole('link', { name: 'Last 7 days' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(await page.getByTestId('chart-jobs').locator('tbody tr').count()).toBe(168);
    expect(await page.locator('#webhooks-desc').textContent()).toContain(
      `${seededWebhookFailures} failed attempts`,
    );
    const failures = page.locator('table.shares');
    for (const code of FAILURES) expect(await failures.textContent()).toContain(code);
    expect(await page.getByTestId('chain-activity').textContent()).toMatch(/Jobs failed on it\d+/);
    await screenshot(page, 'overview-charts');

    // The key's page, from the list of keys: its quota headroom and 30 days of its work.
    await page.goto(`${running.url}/api-keys`);
    await page.getByRole('link', { name: prefix }).click();
    await page.waitForURL(`${running.url}/api-keys/${prefix}`);
    const headroom = (await page.getByTestId('headroom').textContent()) ?? '';
    expect(headroom).toContain('NFT jobs today');
    expect(headroom).toMatch(/Stored.*of 10\.0 GiB/);
    expect(
      await page.getByRole('img', { name: 'Jobs and verifications asked for per UTC day' }).count(),
    ).toBe(1);
    expect(await page.getByTestId('chart-key-jobs').locator('tbody tr').count()).toBe(30);
    const today = new Date().toISOString().slice(5, 10);
    expect(
      await page.getByTestId('chart-key-bytes').locator('tbody tr').last().textContent(),
    ).toContain(today);
    await screenshot(page, 'key-usage');

    // An unknown key is a page that says so, not an error.
    const missing = await page.goto(`${running.url}/api-keys/hm_aaaaaaaa`);
    expect(missing?.status()).toBe(404);
    await context.close();
  });
});
