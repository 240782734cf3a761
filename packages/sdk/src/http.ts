import { DEFAULT_BASE_URL, environmentVariable } from './environment.ts';
import { HallmarkApiError } from './errors.ts';
import { type FetchFunction, globalFetch } from './fetch-function.ts';
import { errorFromResponse, readBody } from './response-body.ts';
import { fetchWithRetry, type RetryOptions, type RetryPolicy, retryPolicy } from './retry.ts';
import type { FileBytes } from './upload.ts';

/** A bearer token, or a function asked before each request (to refresh expiring tokens). */
export type TokenSource = string | (() => string | Promise<string>);

export interface HallmarkClientOptions {
  /**
   * Where the API is, e.g. `https://api.example.com` or `http://localhost:3000/hallmark`.
   * Defaults to the environment's `HALLMARK_URL`, else `http://localhost:3000`.
   */
  readonly baseUrl?: string | URL | undefined;
  /**
   * Sent as `Authorization: Bearer <token>` to every operation that requires it. Defaults to
   * the environment's `HALLMARK_API_KEY` (none in a browser).
   */
  readonly token?: TokenSource | undefined;
  /** Defaults to the global `fetch`, looked up at call time. */
  readonly fetch?: FetchFunction | undefined;
  /**
   * Retrying of 429 and 503 answers (honouring `Retry-After`) and, for GET, of lost
   * connections. Defaults: 3 retries, waits of at most 30 s. `{ retries: 0 }` disables it.
   */
  readonly retry?: RetryOptions | undefined;
}

/** Per-call options shared by every operation. */
export interface RequestOptions {
  /** Aborts the request, e.g. when a poll loop is cancelled. */
  readonly signal?: AbortSignal | undefined;
}

/** One call, as the generated client describes it. */
export interface ApiRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path template from the OpenAPI document, e.g. `/watermark/{requestId}`. */
  readonly path: string;
  readonly pathParams?: Readonly<Record<string, string>>;
  /** Sent as JSON when present. */
  readonly body?: unknown;
  /** Sent as they are (an image's bytes), with the `content-type` given in `headers`. */
  readonly rawBody?: FileBytes;
  /** Undefined values are left out, so optional headers can be passed through as they are. */
  readonly headers?: Readonly<Record<string, string | undefined>>;
  /** Query parameters; undefined and null values are left out. */
  readonly query?: Readonly<Record<string, string | number | boolean | null | undefined>>;
  readonly authenticated: boolean;
  /** Statuses documented with a JSON body: those bodies are results, every other status throws. */
  readonly resultStatuses: readonly number[];
  readonly signal?: AbortSignal | undefined;
}

const ACCEPT = 'application/json, application/problem+json';

/**
 * Sends requests and decodes answers. Only `fetch` is used so the client runs unchanged in
 * Node and browsers; nothing here knows the operations, which the generated client describes.
 */
export class HttpTransport {
  readonly #baseUrl: string;
  readonly #token: TokenSource | undefined;
  readonly #fetch: FetchFunction;
  readonly #retry: RetryPolicy;

  constructor(options: HallmarkClientOptions) {
    // Parsed once so a malformed base URL fails at construction, not on the first call.
    const base = new URL(
      String(options.baseUrl ?? environmentVariable('HALLMARK_URL') ?? DEFAULT_BASE_URL),
    );
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new TypeError(`baseUrl must be an http(s) URL, got ${base.href}`);
    }
    this.#baseUrl = base.href.replace(/\/+$/, '');
    this.#token = options.token ?? environmentVariable('HALLMARK_API_KEY');
    this.#fetch = options.fetch ?? globalFetch;
    this.#retry = retryPolicy(options.retry);
  }

  async request<Result>(request: ApiRequest): Promise<Result> {
    const headers: Record<string, string> = { accept: ACCEPT };
    for (const [name, value] of Object.entries(request.headers ?? {})) {
      if (value !== undefined) headers[name] = value;
    }
    const token = request.authenticated ? await this.#resolveToken() : undefined;
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    const init: RequestInit = { method: request.method, headers };
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(request.body);
    } else if (request.rawBody !== undefined) {
      init.body = request.rawBody;
    }
    if (request.signal) init.signal = request.signal;

    const response = await fetchWithRetry(
      this.#fetch,
      this.#url(request),
      init,
      this.#retry,
      request.resultStatuses,
    );
    const body = await readBody(response);

    if (!request.resultStatuses.includes(response.status)) {
      throw await errorFromResponse(response, body);
    }
    // 204 No Content: the only result without a body (e.g. `signOut`).
    if (response.status === 204) return undefined as Result;
    if (body.kind !== 'json') {
      // Every result status is documented with a JSON body, so anything else is not the API.
      throw new HallmarkApiError(response.status, undefined, body.value, {
        message: `Hallmark API answered ${response.status} without the documented JSON body`,
      });
    }
    // The one unchecked step: the body is trusted to match the documented schema of this status.
    return body.value as Result;
  }

  async #resolveToken(): Promise<string | undefined> {
    return typeof this.#token === 'function' ? await this.#token() : this.#token;
  }

  #url(request: ApiRequest): string {
    const path = request.path.replace(/\{([^}]+)\}/g, (_placeholder, name: string) =>
      encodePathParam(name, request.pathParams?.[name]),
    );
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined && value !== null) query.set(name, String(value));
    }
    const search = query.size === 0 ? '' : `?${query}`;
    return `${this.#baseUrl}${path}${search}`;
  }
}

/**
 * Percent-encodes one path segment. Empty, `.` and `..` would silently address another route
 * after URL normalisation, so they are refused before anything is sent.
 */
function encodePathParam(name: string, value: string | undefined): string {
  if (value === undefined || value === '' || value === '.' || value === '..') {
    throw new TypeError(`Path parameter ${name} must be a non-empty path segment`);
  }
  return encodeURIComponent(value);
}
