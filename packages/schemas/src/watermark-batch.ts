import { z } from 'zod';
import { UnixSeconds } from './common/unix-seconds.ts';
import { WatermarkJobStatus } from './watermark-job.ts';
import { WatermarkOptions } from './watermark-request.ts';

export const MAX_BATCH_ITEMS = 100;

/** `POST /watermark/batches`: many uploaded files, each with its options or the shared ones. */
export const WatermarkBatchRequest = z
  .strictObject({
    items: z
      .array(
        z.strictObject({
          fileId: z.uuid(),
          options: WatermarkOptions.optional().meta({
            description: "This file's options; absent: the batch's `options`.",
          }),
        }),
      )
      .min(1)
      .max(MAX_BATCH_ITEMS),
    options: WatermarkOptions.optional().meta({
      description: 'Options of every item that has none of its own.',
    }),
  })
  .superRefine((batch, context) => {
    if (batch.options !== undefined) return;
    batch.items.forEach((item, index) => {
      if (item.options === undefined) {
        context.addIssue({
          code: 'custom',
          path: ['items', index, 'options'],
          message: 'Options are needed here or for the whole batch',
        });
      }
    });
  })
  .meta({ id: 'WatermarkBatchRequest' });
export type WatermarkBatchRequest = z.infer<typeof WatermarkBatchRequest>;

const BatchItem = z.strictObject({
  requestId: z
    .uuid()
    .meta({ description: 'An ordinary watermark job: `GET /watermark/{requestId}`.' }),
  fileId: z.uuid(),
  status: WatermarkJobStatus,
});

export const WatermarkBatch = z
  .strictObject({
    batchId: z.uuid(),
    status: z.enum(['pending', 'completed']).meta({
      description: '`completed` once no item is pending or processing (each succeeded or failed).',
    }),
    counts: z.strictObject({
      pending: z.int(),
      processing: z.int(),
      success: z.int(),
      failed: z.int(),
    }),
    items: z.array(BatchItem).meta({ description: 'Oldest first.' }),
    createdAt: UnixSeconds,
    completedAt: UnixSeconds.nullable(),
  })
  .meta({ id: 'WatermarkBatch', description: 'A batch and each of its jobs.' });
export type WatermarkBatch = z.infer<typeof WatermarkBatch>;

export const BatchIdParams = z.strictObject({ batchId: z.uuid() });
