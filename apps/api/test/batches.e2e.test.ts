import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  uploadFile,
  verifyWebhook,
  type WatermarkFilesProgress,
  watermarkFiles,
} from '@hallmark/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemOf } from './support/problem.ts';
import { type RunningService, startService } from './support/service.ts';
import { startReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

const photoPath = join(import.meta.dirname, '../../../fixtures/photos/fig-0.25mp.jpg');

describe('watermark batches (POST /watermark/batches) on the real service', () => {
  let service: RunningService;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    service = await startService({
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBHOOK_POLL_MS: '100',
    });
    receiver = await startReceiver();
  });

  afterAll(async () => {
    await receiver?.close();
    await service?.close();
  });

  it('20 files, one corrupt: 19 succeed, 1 fails, one batch.completed event', async () => {
    const { client } = await service.newClient();
    const endpoint = await client.createWebhookEndpoint({
      url: receiver.url,
      events: ['batch.completed'],
    });
    const photo = await readFile(photoPath);
    // A real JPEG header, then noise: it passes the upload's checks and fails to decode.
    const corrupt = Buffer.concat([photo.subarray(0, 600), Buffer.alloc(4_000, 0x37)]);
    const inputs = [...Array.from({ length: 19 }, () => photo), corrupt];
    const seen: WatermarkFilesProgress[] = [];
    const result = await watermarkFiles(
      client,
      inputs,
      { watermarkType: ['invisible', 'c2pa'], data: { author: 'Batch' } },
      { contentType: 'image/jpeg', intervalMs: 200, onProgress: (p) => seen.push(p) },
    );
    // The failed jobs' errors, so that an unexpected failure says why.
    const failures = await Promise.all(
      result.items
        .filter((item) => item.status !== 'success')
        .map(async (item) => (await client.getWatermarkJob(item.requestId)).error),
    );
    expect(failures).toEqual([expect.objectContaining({ code: 'invalid_image' })]);
    expect(result.items.filter((item) => item.status === 'success')).toHaveLength(19);
    expect(result.items.at(-1)).toMatchObject({ input: corrupt, status: 'failed' });
    expect(seen.at(-1)).toEqual({ total: 20, uploaded: 20, done: 20, failed: 1 });
    const [batchId] = result.batchIds;
    const batch = await client.getWatermarkBatch(batchId ?? '');
    expect(batch).toMatchObject({
      status: 'completed',
      counts: { pending: 0, processing: 0, success: 19, failed: 1 },
    });
    const failed = await client.getWatermarkJob(result.items.at(-1)?.requestId ?? '');
    expect(failed.status).toBe('failed');

    const [delivery] = await receiver.waitFor(1);
    const event = await verifyWebhook(
      delivery?.body ?? '',
      delivery?.headers as Record<string, string>,
      endpoint.secret ?? '',
    );
    expect(event).toMatchObject({
      type: 'batch.completed',
      data: { batchId, counts: { success: 19, failed: 1 } },
    });
    // Told once, whatever the workers do: the batch is completed by one conditional update,
    // together with its one event (a later completion finds it completed already), and the
    // delivery carries that event's id. The delivery arrived, so the completion is committed.
    const events = await service.prisma.webhookEvent.findMany({
      where: { type: 'batch.completed', data: { path: ['batchId'], equals: batchId ?? '' } },
    });
    expect(events.map((row) => row.id)).toEqual([delivery?.headers['webhook-id']]);
  });

  it('checks every item before queueing any: a bad one refuses the batch, naming it', async () => {
    const { client } = await service.newClient();
    const { client: stranger } = await service.newClient();
    const link = await stranger.createUploadLink({ contentType: 'image/jpeg', fileName: 'a.jpg' });
    const mine = await client.createUploadLink({ contentType: 'image/jpeg', fileName: 'b.jpg' });
    const unknown = await problemOf(() =>
      client.createWatermarkBatch({
        items: [{ fileId: mine.fileId }, { fileId: link.fileId }],
        options: { watermarkType: ['c2pa'] },
      }),
    );
    // The first item is not uploaded yet: it is the one named.
    expect(unknown.status).toBe(409);
    expect(unknown.problem?.detail).toMatch(/^items\[0\]: /);
    const noOptions = await problemOf(() =>
      client.createWatermarkBatch({ items: [{ fileId: mine.fileId }] }),
    );
    expect(noOptions.status).toBe(400);
    expect(noOptions.problem?.errors?.[0]?.path).toBe('items[0].options');
    const tooMany = await problemOf(() =>
      client.createWatermarkBatch({
        items: Array.from({ length: 101 }, () => ({ fileId: mine.fileId })),
        options: { watermarkType: ['c2pa'] },
      }),
    );
    expect(tooMany.status).toBe(400);
    expect(await service.prisma.watermarkBatch.count()).toBe(1);
  });

  it('one Idempotency-Key makes one batch, even sent three times at once; another body with it is refused', async () => {
    const { client } = await service.newClient();
    const link = await client.createUploadLink({ contentType: 'image/jpeg', fileName: 'fig.jpg' });
    await uploadFile(link.uploadLink, await readFile(photoPath), 'image/jpeg');
    const request = {
      items: [{ fileId: link.fileId }],
      options: { watermarkType: ['c2pa' as const] },
    };
    const idempotencyKey = crypto.randomUUID();
    const answers = await Promise.all(
      [0, 1, 2].map(() => client.createWatermarkBatch(request, { idempotencyKey })),
    );
    expect(new Set(answers.map((answer) => answer.batchId)).size).toBe(1);
    const batchId = answers[0]?.batchId ?? '';
    expect(await service.prisma.watermarkJob.count({ where: { batchId } })).toBe(1);
    const { apiKeyId } = await service.prisma.watermarkBatch.findUniqueOrThrow({
      where: { id: batchId },
    });
    expect(await service.prisma.watermarkBatch.count({ where: { apiKeyId } })).toBe(1);
    const again = await client.createWatermarkBatch(request, { idempotencyKey });
    expect(again.batchId).toBe(batchId);
    const other = await problemOf(() =>
      client.createWatermarkBatch(
        { ...request, options: { watermarkType: ['invisible'] } },
        { idempotencyKey },
      ),
    );
    expect(other.status).toBe(422);
    expect(other.problem?.type).toMatch(/idempotency-key-reused$/);
  });

  it("another key's batch answers 404", async () => {
    const { client: owner } = await service.newClient();
    const { client: stranger } = await service.newClient();
    const result = await watermarkFiles(
      owner,
      [photoPath],
      { watermarkType: ['c2pa'] },
      {
        intervalMs: 200,
      },
    );
    const batchId = result.batchIds[0] ?? '';
    expect((await owner.getWatermarkBatch(batchId)).status).toBe('completed');
    expect((await problemOf(() => stranger.getWatermarkBatch(batchId))).status).toBe(404);
  });
});
