import { type FetchFunction, globalFetch } from './fetch-function.ts';
import { errorFromResponse } from './response-body.ts';
import { fetchWithRetry, type RetryOptions, retryPolicy } from './retry.ts';

/**
 * Options of the calls to signed storage links (upload, download). These links carry their
 * own `signature` and take no bearer token, so they do not go through `HallmarkClient`, whose
 * settings are private to it: pass `fetch` and `retry` here too if you changed them there.
 */
export interface SignedLinkOptions {
  readonly signal?: AbortSignal | undefined;
  /** Defaults to the global `fetch`. */
  readonly fetch?: FetchFunction | undefined;
  /** Same meaning and defaults as `HallmarkClientOptions.retry`. */
  readonly retry?: RetryOptions | undefined;
}

/**
 * Sends one request to a signed link, retried like API calls, and resolves with the 2xx
 * response; any other answer becomes a `HallmarkApiError` (storage errors are problem+json too:
 * 403 for a bad or expired signature, 409 for a used upload link, …).
 */
export async function sendToSignedLink(
  link: string,
  init: RequestInit,
  options: SignedLinkOptions,
): Promise<Response> {
  if (options.signal) init.signal = options.signal;
  const response = await fetchWithRetry(
    options.fetch ?? globalFetch,
    link,
    init,
    retryPolicy(options.retry),
  );
  if (!response.ok) throw await errorFromResponse(response);
  return response;
}
