import { setTimeout as delay } from 'node:timers/promises';
import type { CID } from 'multiformats/cid';
import { IpfsError } from './errors.ts';
import { isGatewayFailure, isRecord, parseJson, stringField, unreachable } from './http-json.ts';

export interface PinningServiceOptions {
  /** The API root, e.g. `https://api.pinata.cloud/psa`; `/pins` is appended. */
  readonly endpoint: string;
  /** The service's access token, sent as `Authorization: Bearer <token>`. */
  readonly token: string;
  /** How long `pin` waits for `pinned` before returning the status it has. Default 60 s. */
  readonly waitMs?: number | undefined;
  /** Between two status checks. Default 2 s. */
  readonly pollIntervalMs?: number | undefined;
  /** Per request. Default 30 s. */
  readonly timeoutMs?: number | undefined;
}

export type PinStatusName = 'queued' | 'pinning' | 'pinned' | 'failed';

/** One pin request at the service (the spec's `PinStatus`, reduced to what Hallmark reads). */
export interface RemotePin {
  readonly requestId: string;
  readonly status: PinStatusName;
}

const STATUSES: readonly string[] = ['queued', 'pinning', 'pinned', 'failed'];

function isPinStatusName(value: string): value is PinStatusName {
  return STATUSES.includes(value);
}

/**
 * Client of the IPFS Pinning Service API (https://ipfs.github.io/pinning-services-api-spec/):
 * asks a remote service to keep a copy of a CID, which it fetches from the IPFS network (so it
 * works with a Kubo node that is reachable from the internet, not with the embedded node).
 *
 * `pin` reuses a request that is already queued, pinning or pinned for the CID, so running a job
 * step twice never pays for two pins.
 */
export class PinningService {
  readonly #endpoint: string;
  readonly #token: string;
  readonly #waitMs: number;
  readonly #pollIntervalMs: number;
  readonly #timeoutMs: number;

  constructor(options: PinningServiceOptions) {
    this.#endpoint = options.endpoint.replace(/\/+$/, '');
    this.#token = options.token;
    this.#waitMs = options.waitMs ?? 60_000;
    this.#pollIntervalMs = options.pollIntervalMs ?? 2_000;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
  }

  /**
   * Requests the pin (or finds the existing request) and waits up to `waitMs` for `pinned`.
   * Returns the last status seen; throws `pin_failed` when the service gives up.
   */
  async pin(
    cid: CID,
    options: { name?: string; origins?: readonly string[] } = {},
  ): Promise<Exclude<PinStatusName, 'failed'>> {
    const deadline = Date.now() + this.#waitMs;
    let pin = (await this.find(cid)) ?? (await this.request(cid, options));
    while ((pin.status === 'queued' || pin.status === 'pinning') && Date.now() < deadline) {
      await delay(this.#pollIntervalMs);
      pin = await this.status(pin.requestId);
    }
    if (pin.status === 'failed') {
      throw new IpfsError('pin_failed', `the pinning service could not pin ${cid}`);
    }
    return pin.status;
  }

  /** Removes every live request for the CID (the service then drops its copy). */
  async unpin(cid: CID): Promise<void> {
    for (let pin = await this.find(cid); pin !== undefined; pin = await this.find(cid)) {
      await this.#send('DELETE', `/pins/${encodeURIComponent(pin.requestId)}`);
    }
  }

  /** The newest request for the CID that is not failed, if any. */
  async find(cid: CID): Promise<RemotePin | undefined> {
    const query = new URLSearchParams({
      cid: cid.toString(),
      status: 'queued,pinning,pinned',
      limit: '1',
    });
    const answer = await this.#send('GET', `/pins?${query}`);
    const results = isRecord(answer) ? answer.results : undefined;
    if (!Array.isArray(results)) {
      throw new IpfsError('ipfs_failed', 'pinning service listed pins without "results"');
    }
    const [first] = results;
    return first === undefined ? undefined : remotePinOf(first);
  }

  async request(
    cid: CID,
    options: { name?: string; origins?: readonly string[] } = {},
  ): Promise<RemotePin> {
    const body = {
      cid: cid.toString(),
      ...(options.name === undefined ? {} : { name: options.name }),
      ...(options.origins === undefined ? {} : { origins: options.origins }),
    };
    return remotePinOf(await this.#send('POST', '/pins', body));
  }

  async status(requestId: string): Promise<RemotePin> {
    return remotePinOf(await this.#send('GET', `/pins/${encodeURIComponent(requestId)}`));
  }

  async #send(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
    const what = `pinning service ${method} ${path.split('?')[0]}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.#endpoint}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.#token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? null : JSON.stringify(body),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw unreachable(`${what} at ${this.#endpoint}`, error);
    }
    if (response.ok) return text === '' ? undefined : parseJson(text, what);
    if (isGatewayFailure(response.status)) {
      throw new IpfsError('ipfs_unreachable', `${what}: HTTP ${response.status}`);
    }
    const code = response.status === 404 ? 'ipfs_not_found' : 'ipfs_failed';
    throw new IpfsError(code, `${what}: HTTP ${response.status}: ${reasonOf(text)}`);
  }
}

function remotePinOf(value: unknown): RemotePin {
  const requestId = stringField(value, 'requestid', 'pinning service');
  const status = stringField(value, 'status', 'pinning service');
  if (!isPinStatusName(status)) {
    throw new IpfsError('ipfs_failed', `pinning service answered an unknown status "${status}"`);
  }
  return { requestId, status };
}

/** The spec's error body is `{ error: { reason, details } }`. */
function reasonOf(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    const error = isRecord(parsed) ? parsed.error : undefined;
    if (isRecord(error) && typeof error.reason === 'string') {
      return typeof error.details === 'string' ? `${error.reason}: ${error.details}` : error.reason;
    }
  } catch {
    // Not the spec's shape; fall through to the raw text.
  }
  return text.slice(0, 300) || 'no message';
}
