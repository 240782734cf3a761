import type { FetchFunction } from './fetch-function.ts';
import { sleep } from './sleep.ts';

/** How answers that mean "not now" are retried. Every field is optional. */
export interface RetryOptions {
  /** Retries after the first attempt; `0` disables retrying. Default 3. */
  readonly retries?: number | undefined;
  /**
   * Longest single wait, in ms. When `Retry-After` asks for longer, the answer is returned at
   * once instead: retrying earlier than asked would only be refused again. Default 30 000.
   */
  readonly maxDelayMs?: number | undefined;
  /** First wait when the server gives no `Retry-After`; it doubles on each retry. Default 500. */
  readonly baseDelayMs?: number | undefined;
}

export type RetryPolicy = Required<RetryOptions>;

/** 429: rate limited; 503: briefly unavailable. Neither did the work, so both may be resent. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  const policy = {
    retries: options.retries ?? 3,
    maxDelayMs: options.maxDelayMs ?? 30_000,
    baseDelayMs: options.baseDelayMs ?? 500,
  };
  for (const [name, value] of Object.entries(policy)) {
    if (!Number.isFinite(value) || value < 0) {
      throw new RangeError(`retry.${name} must be a finite number >= 0, got ${value}`);
    }
  }
  return policy;
}

/**
 * Sends one request, resending it while the answer is 429 or 503 (unless that status is a
 * documented result, as 503 is for `GET /ready`) and, for GET only, while no answer arrives at
 * all. Resolves with the last response, whatever its status, so the caller builds one error
 * from it; rejects with the signal's reason when aborted, even in the middle of a wait.
 */
export async function fetchWithRetry(
  fetch: FetchFunction,
  url: string,
  init: RequestInit,
  policy: RetryPolicy,
  resultStatuses: readonly number[] = [],
): Promise<Response> {
  // Only a GET is known to be safe to send twice when the first one may have reached the server.
  const resendOnNetworkError = (init.method ?? 'GET').toUpperCase() === 'GET';
  for (let attempt = 0; ; attempt++) {
    const retriesLeft = attempt < policy.retries;
    let response: Response;
    try {
      response = await fetch(url, init);
    } catch (error) {
      // fetch rejects with a TypeError when no answer came (refused, reset, DNS); aborts differ.
      const lostConnection = error instanceof TypeError && !init.signal?.aborted;
      if (!(lostConnection && resendOnNetworkError && retriesLeft)) throw error;
      await sleep(backoffMs(policy, attempt), init.signal);
      continue;
    }
    if (
      !retriesLeft ||
      !RETRYABLE_STATUSES.has(response.status) ||
      resultStatuses.includes(response.status)
    ) {
      return response;
    }
    const delay = retryAfterMs(response.headers.get('retry-after')) ?? backoffMs(policy, attempt);
    if (delay > policy.maxDelayMs) return response;
    await discardBody(response);
    await sleep(delay, init.signal);
  }
}

/**
 * `Retry-After` in ms: either delay-seconds or an HTTP date (RFC 9110 10.2.3); `undefined` when
 * absent or unreadable, so the caller falls back to its own backoff.
 */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // Date.parse reads bare numbers such as "1.5" as dates; an HTTP date always has a month name.
  if (!/[A-Za-z]/.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential, with jitter so that clients refused together do not all come back together. */
function backoffMs(policy: RetryPolicy, attempt: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return ceiling / 2 + (Math.random() * ceiling) / 2;
}

/** Frees the connection of an answer that will not be read. */
async function discardBody(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // Nothing to free: the body had already ended or failed.
  }
}
