import { existsSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HANG_MS, waitFor } from '@hallmark/runtime/testing';
import { uploadFile, waitForJob } from '@hallmark/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegPhoto } from './support/photos.ts';
import { problemOf } from './support/problem.ts';
import { type RunningService, startService } from './support/service.ts';
import { submitJob } from './support/submit-job.ts';

const DAY_MS = 86_400_000;

describe('lifecycle: nothing stays stuck, nothing grows without bound', () => {
  let service: RunningService;
  let objects: string;

  beforeAll(async () => {
    service = await startService({
      RETENTION_SWEEP_INTERVAL_MS: '300',
      RETENTION_INPUT_DAYS: '7',
      RETENTION_OUTPUT_DAYS: '30',
    });
    objects = join(service.env.HALLMARK_DATA_DIR ?? '', 'objects');
  });

  afterAll(async () => {
    await service?.close();
  });

  it('the retention sweep deletes exactly what is due, and the API says so', async () => {
    const { client } = await service.newClient();
    const jobs = [];
    for (let i = 0; i < 3; i++) {
      const accepted = await submitJob(client, jpegPhoto, { watermarkType: ['c2pa'] });
      jobs.push(await waitForJob(client, accepted.requestId, { timeoutMs: HANG_MS }));
    }
    const [old, middle, recent] = jobs.map((job) => job.requestId);
    const rows = await service.prisma.watermarkJob.findMany({
      where: { id: { in: [old ?? '', middle ?? '', recent ?? ''] } },
      include: { file: true },
    });
    const row = (id: string | undefined) => {
      const found = rows.find((candidate) => candidate.id === id);
      if (found === undefined) throw new Error(`no row ${id}`);
      return found;
    };
    // Every file is there before any is backdated: the sweep runs every 300 ms and may delete a
    // backdated one before a check placed after the backdating.
    const stored = (key: string | null) => existsSync(join(objects, key ?? 'missing'));
    expect([old, middle, recent].every((id) => stored(row(id).file.storageKey))).toBe(true);
    // `old` ended 40 days ago (input and output due), `middle` 10 days ago (input due, output
    // kept for 30 days), `recent` just now (nothing due).
    for (const [id, days] of [
      [old, 40],
      [middle, 10],
    ] as const) {
      const ended = new Date(Date.now() - days * DAY_MS);
      await service.prisma.watermarkJob.update({ where: { id }, data: { finishedAt: ended } });
      await service.prisma.file.update({
        where: { id: row(id).fileId },
        data: { uploadedAt: ended },
      });
    }

    await waitFor(async () => !stored(row(middle).file.storageKey), 'the sweep');
    await waitFor(async () => !stored(row(old).outputStorageKey), 'the sweep of outputs');
    expect(stored(row(old).file.storageKey)).toBe(false);
    expect(stored(row(middle).outputStorageKey)).toBe(true);
    expect(stored(row(recent).file.storageKey)).toBe(true);
    expect(stored(row(recent).outputStorageKey)).toBe(true);
    const after = await service.prisma.watermarkJob.findMany({
      where: { id: { in: [old ?? '', middle ?? '', recent ?? ''] } },
      include: { file: true },
    });
    const deleted = Object.fromEntries(
      after.map((job) => [
        job.id,
        { input: job.file.deletedAt !== null, output: job.outputDeletedAt !== null },
      ]),
    );
    expect(deleted).toEqual({
      [old ?? '']: { input: true, output: true },
      [middle ?? '']: { input: true, output: false },
      [recent ?? '']: { input: false, output: false },
    });

    // The API's view of a job trails its row by the change notification's delivery (the job
    // view cache), which a loaded machine can hold back for a moment.
    await waitFor(
      () =>
        client.getWatermarkJob(old ?? '').then(
          () => false,
          () => true,
        ),
      'the API to hear of the deletion',
    );
    const gone = await problemOf(() => client.getWatermarkJob(old ?? ''));
    expect(gone.status).toBe(410);
    expect(gone.problem?.type).toBe('https://hallmark.dev/problems/output-deleted');
    expect((await client.getWatermarkJob(middle ?? '')).status).toBe('success');
    const again = await problemOf(() =>
      client.createWatermarkJob({
        fileId: row(middle).fileId,
        options: { watermarkType: ['c2pa'] },
      }),
    );
    expect(again.status).toBe(410);
    expect(again.problem?.type).toBe('https://hallmark.dev/problems/file-deleted');
    await service.worker.logged('retention sweep');
  });

  it('the sweep forgets settled webhook events past WEBHOOK_LOG_RETENTION_DAYS, keeps the rest', async () => {
    const { client } = await service.newClient();
    const endpoint = await client.createWebhookEndpoint({ url: 'https://hooks.invalid/x' });
    const key = await service.prisma.webhookEndpoint.findUniqueOrThrow({
      where: { id: endpoint.id },
    });
    const old = new Date(Date.now() - 40 * 86_400_000);
    // One write per event, with its delivery and attempt: the sweep runs every 300 ms, and an
    // old event caught before its delivery existed would count as settled and be forgotten.
    const event = async (id: string, createdAt: Date, status: 'succeeded' | 'pending') => {
      await service.prisma.webhookEvent.create({
        data: {
          id,
          apiKeyId: key.apiKeyId,
          type: 'watermark.succeeded',
          data: {},
          createdAt,
          deliveries: {
            create: {
              endpointId: endpoint.id,
              status,
              attempts: 1,
              // A pending one is not due for days: the dispatcher leaves it alone meanwhile.
              nextAttemptAt: status === 'pending' ? new Date(Date.now() + 3 * 86_400_000) : null,
              createdAt,
              log: {
                create: { attempt: 1, startedAt: createdAt, statusCode: 200, latencyMs: 5 },
              },
            },
          },
        },
      });
    };
    const suffix = crypto.randomUUID().replaceAll('-', '');
    await event(`msg_old_${suffix}`, old, 'succeeded');
    await event(`msg_open_${suffix}`, old, 'pending');
    await event(`msg_new_${suffix}`, new Date(), 'succeeded');
    await expect
      .poll(() => service.prisma.webhookEvent.count({ where: { id: `msg_old_${suffix}` } }))
      .toBe(0);
    expect(
      await service.prisma.webhookDelivery.count({ where: { eventId: `msg_old_${suffix}` } }),
    ).toBe(0);
    const kept = await service.prisma.webhookEvent.findMany({
      where: { id: { in: [`msg_open_${suffix}`, `msg_new_${suffix}`] } },
    });
    expect(kept).toHaveLength(2);
  });

  it('an upload left `uploading` by a dead process is usable again, and its temporary file goes', async () => {
    const { client } = await service.newClient();
    const link = await client.createUploadLink({ contentType: 'image/jpeg', fileName: 'p.jpg' });
    const file = await service.prisma.file.findUniqueOrThrow({ where: { id: link.fileId } });
    // What an API process killed mid-upload leaves: the row `uploading`, a partial file.
    const startedLongAgo = new Date(Date.now() - 2 * 3_600_000);
    await service.prisma.file.update({
      where: { id: file.id },
      data: { status: 'uploading', uploadStartedAt: startedLongAgo },
    });
    const partial = join(objects, `${file.storageKey}.0123456789ab.upload`);
    const fresh = join(objects, `${file.storageKey}.ba9876543210.upload`);
    await mkdir(join(partial, '..'), { recursive: true });
    await writeFile(partial, jpegPhoto.subarray(0, 100));
    await utimes(partial, startedLongAgo, startedLongAgo);
    await writeFile(fresh, jpegPhoto.subarray(0, 100));

    await waitFor(
      async () =>
        (await service.prisma.file.findUniqueOrThrow({ where: { id: file.id } })).status ===
        'awaiting_upload',
      'the stale upload to be recovered',
    );
    await waitFor(async () => !existsSync(partial), 'the stale temporary file to go');
    // A temporary file of an upload that may still be running is left alone.
    expect(existsSync(fresh)).toBe(true);

    // The link works again: the upload completes and a job runs on it.
    await uploadFile(link.uploadLink, jpegPhoto, 'image/jpeg');
    const accepted = await client.createWatermarkJob({
      fileId: link.fileId,
      options: { watermarkType: ['c2pa'] },
    });
    expect((await waitForJob(client, accepted.requestId, { timeoutMs: HANG_MS })).status).toBe(
      'success',
    );
  });
});
