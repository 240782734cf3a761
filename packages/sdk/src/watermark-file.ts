import { downloadFile, downloadFileTo } from './download.ts';
import type { HallmarkClient } from './generated/client.ts';
import type { WatermarkJob, WatermarkOptions } from './generated/openapi.ts';
import { fileToUpload, type WatermarkInput } from './input.ts';
import type { SignedLinkOptions } from './signed-link.ts';
import { uploadFile } from './upload.ts';
import { type JobProcessingEvent, waitForJob } from './wait-for-job.ts';

/** The steps of `watermarkFile`, in the order they are reported. */
export type WatermarkProgress =
  | { readonly phase: 'uploading'; readonly bytes: number }
  | { readonly phase: 'uploaded'; readonly fileId: string }
  | { readonly phase: 'queued'; readonly requestId: string }
  | JobProcessingEvent
  | { readonly phase: 'done'; readonly job: WatermarkJob };

export interface WatermarkFileOptions extends SignedLinkOptions {
  readonly onProgress?: ((event: WatermarkProgress) => void) | undefined;
  /** How long to wait for the job once queued (see `waitForJob`). Default 10 minutes. */
  readonly timeoutMs?: number | undefined;
  readonly minIntervalMs?: number | undefined;
  readonly maxIntervalMs?: number | undefined;
  /** Defaults to the `File`'s name or the path's last segment, else `upload.<extension>`. */
  readonly fileName?: string | undefined;
  /** Defaults to the `Blob`'s type, else the extension of the file name (jpg, png, webp, …). */
  readonly contentType?: string | undefined;
}

/** A finished job and the means to fetch its output while `job.expiredAt` has not passed. */
export interface WatermarkedFile {
  /** The job, `status: 'success'`, with `watermarkedUrl`, `expiredAt` and any `nft`/`ipfs`. */
  readonly job: WatermarkJob;
  /** The watermarked bytes. */
  download(options?: { readonly signal?: AbortSignal | undefined }): Promise<Uint8Array>;
  /** Writes the watermarked bytes to `path`, replacing it; Node only. */
  downloadTo(path: string, options?: { readonly signal?: AbortSignal | undefined }): Promise<void>;
}

/**
 * The whole flow of docs/flow.md in one call: announce the file, upload it, request watermarking
 * and wait for the job. Rejects with `UnknownContentTypeError` before sending anything when the
 * media type cannot be told, `HallmarkApiError` when a call is refused, then as `waitForJob`
 * (`WatermarkJobFailedError`, `WaitTimeoutError`, the signal's reason).
 */
export async function watermarkFile(
  client: Pick<HallmarkClient, 'createUploadLink' | 'createWatermarkJob' | 'getWatermarkJob'>,
  input: WatermarkInput,
  options: WatermarkOptions,
  settings: WatermarkFileOptions = {},
): Promise<WatermarkedFile> {
  const { signal, onProgress } = settings;
  const file = await fileToUpload(input, settings);

  const { fileId, uploadLink } = await client.createUploadLink(
    { contentType: file.contentType, fileName: file.fileName },
    { signal },
  );
  onProgress?.({ phase: 'uploading', bytes: file.size });
  await uploadFile(uploadLink, file.bytes, file.contentType, settings);
  onProgress?.({ phase: 'uploaded', fileId });

  // One key for every attempt of this request, so the client's retries cannot queue it twice.
  const { requestId } = await client.createWatermarkJob(
    { fileId, options },
    { signal, idempotencyKey: globalThis.crypto.randomUUID() },
  );
  onProgress?.({ phase: 'queued', requestId });

  const job = await waitForJob(client, requestId, { ...settings, onProgress });
  onProgress?.({ phase: 'done', job });

  const link = (): string => {
    if (job.watermarkedUrl === undefined) {
      throw new Error(`Watermark job ${job.requestId} succeeded without a watermarkedUrl`);
    }
    return job.watermarkedUrl;
  };
  return {
    job,
    download: async (call = {}) => await downloadFile(link(), { ...settings, signal: call.signal }),
    downloadTo: async (path, call = {}) => {
      await downloadFileTo(link(), path, { ...settings, signal: call.signal });
    },
  };
}
