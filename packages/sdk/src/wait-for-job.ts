import { WaitTimeoutError, WatermarkJobFailedError } from './errors.ts';
import type { HallmarkClient } from './generated/client.ts';
import type { WatermarkJob, WatermarkJobStatus } from './generated/openapi.ts';
import { sleep } from './sleep.ts';

/** Sent after each poll that found the job still unfinished. */
export interface JobProcessingEvent {
  readonly phase: 'processing';
  readonly status: Exclude<WatermarkJobStatus, 'success' | 'failed'>;
  /** Since `waitForJob` started. */
  readonly elapsedMs: number;
}

export interface WaitForJobOptions {
  /** Stops waiting (and any request in flight); the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
  /** Gives up with `WaitTimeoutError` after this long. Default 10 minutes; `Infinity` waits on. */
  readonly timeoutMs?: number | undefined;
  readonly onProgress?: ((event: JobProcessingEvent) => void) | undefined;
  /** First pause between polls; it doubles after each poll up to `maxIntervalMs`. Default 250. */
  readonly minIntervalMs?: number | undefined;
  /** Default 5000. */
  readonly maxIntervalMs?: number | undefined;
}

/** Timers cannot be longer (about 24.8 days); longer ones fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Polls `GET /watermark/{requestId}` until the job is final. Resolves with the job on `success`
 * (its `watermarkedUrl` is then set); rejects with `WatermarkJobFailedError` on `failed`, with
 * `WaitTimeoutError` after `timeoutMs`, and with the signal's reason when aborted. Rate limits
 * and brief outages while polling are absorbed by the client's own retries.
 */
export function waitForJob(
  client: Pick<HallmarkClient, 'getWatermarkJob'>,
  requestId: string,
  options: WaitForJobOptions = {},
): Promise<WatermarkJob> {
  return pollUntilFinal(
    (signal) => client.getWatermarkJob(requestId, { signal }),
    requestId,
    options,
    (job) => new WatermarkJobFailedError(job),
  );
}

/** A job of either kind as polled: watermark jobs and verifications share their states. */
interface PolledJob {
  readonly status: WatermarkJobStatus;
}

/**
 * Polls with `get` until the job is `success` (resolves with it) or `failed` (rejects with
 * `failed(job)`), backing off between polls; `WaitTimeoutError` after `timeoutMs`.
 */
export async function pollUntilFinal<Job extends PolledJob>(
  get: (signal: AbortSignal) => Promise<Job>,
  requestId: string,
  options: WaitForJobOptions,
  failed: (job: Job) => Error,
): Promise<Job> {
  const { signal: callerSignal, onProgress } = options;
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const maxIntervalMs = options.maxIntervalMs ?? 5000;
  let intervalMs = Math.min(options.minIntervalMs ?? 250, maxIntervalMs);
  if (!(timeoutMs > 0) || !(intervalMs >= 0)) {
    throw new RangeError('timeoutMs must be > 0 and the poll intervals >= 0');
  }

  const started = Date.now();
  let lastJob: Job | undefined;
  // The deadline aborts a request in flight too, so a hung connection cannot outlast it.
  const deadline = new AbortController();
  const timer =
    timeoutMs <= MAX_TIMER_MS
      ? setTimeout(
          () => deadline.abort(new WaitTimeoutError(requestId, timeoutMs, lastJob)),
          timeoutMs,
        )
      : undefined;
  const signal = callerSignal ? AbortSignal.any([callerSignal, deadline.signal]) : deadline.signal;
  try {
    for (;;) {
      const job = await get(signal);
      lastJob = job;
      if (job.status === 'success') return job;
      if (job.status === 'failed') throw failed(job);
      onProgress?.({ phase: 'processing', status: job.status, elapsedMs: Date.now() - started });
      await sleep(intervalMs, signal);
      intervalMs = Math.min(maxIntervalMs, Math.max(1, intervalMs * 2));
    }
  } catch (error) {
    // Whatever a custom fetch rejects with on abort, report which of the two stopped the wait.
    if (callerSignal?.aborted) throw callerSignal.reason;
    if (deadline.signal.aborted) throw deadline.signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
