import { WaitTimeoutError } from './errors.ts';
import type { HallmarkClient } from './generated/client.ts';
import type { WatermarkBatch, WatermarkOptions } from './generated/openapi.ts';
import { fileToUpload, type WatermarkInput } from './input.ts';
import type { SignedLinkOptions } from './signed-link.ts';
import { sleep } from './sleep.ts';
import { uploadFile } from './upload.ts';

/** The API's limit of items per batch; longer lists are sent as several batches. */
const BATCH_SIZE = 100;

export interface WatermarkFilesProgress {
  readonly total: number;
  readonly uploaded: number;
  /** Items that ended, successfully or not. */
  readonly done: number;
  readonly failed: number;
}

export interface WatermarkFilesOptions extends SignedLinkOptions {
  /** Uploads at once. Default 4. */
  readonly concurrency?: number | undefined;
  readonly onProgress?: ((progress: WatermarkFilesProgress) => void) | undefined;
  /** How long to wait for every item to end, once queued. Default 30 minutes. */
  readonly timeoutMs?: number | undefined;
  /** Between two looks at the batches. Default 1000 ms. */
  readonly intervalMs?: number | undefined;
  /** For inputs whose type cannot be told (bytes): the type of every one of them. */
  readonly contentType?: string | undefined;
}

/** One input and the job it became. */
export interface WatermarkedItem {
  readonly input: WatermarkInput;
  readonly fileId: string;
  /** `GET /watermark/{requestId}` (`client.getWatermarkJob`) has its output link or error. */
  readonly requestId: string;
  readonly status: 'success' | 'failed';
}

export interface WatermarkedFiles {
  readonly batchIds: readonly string[];
  /** In the order of the inputs. */
  readonly items: readonly WatermarkedItem[];
}

type BatchClient = Pick<
  HallmarkClient,
  'createUploadLink' | 'createWatermarkBatch' | 'getWatermarkBatch'
>;

/**
 * Many files with the same options: uploads them (`concurrency` at a time), asks for them in
 * batches of up to 100 (`POST /watermark/batches`) and waits until every item has ended. A file
 * that fails is reported as `failed`, never thrown: the others go on. Rejects with
 * `HallmarkApiError` when a call is refused (before any batch: nothing was queued), or
 * `WaitTimeoutError`.
 */
export async function watermarkFiles(
  client: BatchClient,
  inputs: readonly WatermarkInput[],
  options: WatermarkOptions,
  settings: WatermarkFilesOptions = {},
): Promise<WatermarkedFiles> {
  const { signal, onProgress } = settings;
  const progress = { total: inputs.length, uploaded: 0, done: 0, failed: 0 };
  const report = () => onProgress?.({ ...progress });
  const fileIds = new Array<string>(inputs.length);

  let next = 0;
  const uploader = async () => {
    while (next < inputs.length) {
      const index = next++;
      const file = await fileToUpload(inputs[index] as WatermarkInput, settings);
      const { fileId, uploadLink } = await client.createUploadLink(
        { contentType: file.contentType, fileName: file.fileName },
        { signal },
      );
      await uploadFile(uploadLink, file.bytes, file.contentType, settings);
      fileIds[index] = fileId;
      progress.uploaded += 1;
      report();
    }
  };
  const lanes = Math.max(1, Math.min(settings.concurrency ?? 4, inputs.length));
  await Promise.all(Array.from({ length: lanes }, uploader));

  const batches: WatermarkBatch[] = [];
  for (let start = 0; start < fileIds.length; start += BATCH_SIZE) {
    const items = fileIds.slice(start, start + BATCH_SIZE).map((fileId) => ({ fileId }));
    // One key for every attempt of this batch, so the client's retries cannot queue it twice.
    batches.push(
      await client.createWatermarkBatch(
        { items, options },
        { signal, idempotencyKey: globalThis.crypto.randomUUID() },
      ),
    );
  }

  const timeoutMs = settings.timeoutMs ?? 30 * 60_000;
  const deadline = Date.now() + timeoutMs;
  const statusOf = new Map<string, { requestId: string; status: string }>();
  for (;;) {
    for (const [index, batch] of batches.entries()) {
      if (batch.status === 'completed') continue;
      batches[index] = await client.getWatermarkBatch(batch.batchId, { signal });
    }
    for (const batch of batches) {
      for (const item of batch.items) statusOf.set(item.fileId, item);
    }
    const ended = [...statusOf.values()].filter((item) => /^(success|failed)$/.test(item.status));
    progress.done = ended.length;
    progress.failed = ended.filter((item) => item.status === 'failed').length;
    report();
    if (batches.every((batch) => batch.status === 'completed')) break;
    if (Date.now() > deadline) {
      const open = batches.find((batch) => batch.status !== 'completed');
      throw new WaitTimeoutError(open?.batchId ?? '', timeoutMs, open);
    }
    await sleep(settings.intervalMs ?? 1_000, signal);
  }

  return {
    batchIds: batches.map((batch) => batch.batchId),
    items: inputs.map((input, index) => {
      const fileId = fileIds[index] as string;
      const item = statusOf.get(fileId);
      return {
        input,
        fileId,
        requestId: item?.requestId ?? '',
        status: item?.status === 'success' ? 'success' : 'failed',
      };
    }),
  };
}
