import { IpfsError } from './errors.ts';
import { isGatewayFailure, isRecord, parseJson, unreachable } from './http-json.ts';

export interface KuboRpcOptions {
  /** Base URL of the RPC API, without `/api/v0` (Kubo's default is `http://127.0.0.1:5001`). */
  readonly apiUrl: string;
  /** Sent as the `Authorization` header, for an RPC API behind `API.Authorizations` or a proxy. */
  readonly authorization?: string | undefined;
  /** Per call, answer included. Default 60 s. */
  readonly timeoutMs?: number | undefined;
}

export type RpcParams = Record<string, string>;

/**
 * Kubo's errors say "not found" in a few wordings: `block was not found locally (offline)`,
 * `ipld: could not find <cid>`, `no link named "x" under <cid>`.
 */
const NOT_FOUND_MESSAGE = /not found|could not find|no link named/i;

/**
 * The few Kubo RPC commands Hallmark needs, over plain `fetch` (every command is a POST to
 * `/api/v0/<command>`). It turns transport failures and Kubo's `{ Message }` errors into
 * `IpfsError`s, so the driver above never looks at HTTP.
 */
export class KuboRpc {
  readonly #apiUrl: string;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;

  constructor(options: KuboRpcOptions) {
    this.#apiUrl = options.apiUrl.replace(/\/+$/, '');
    this.#headers =
      options.authorization === undefined ? {} : { authorization: options.authorization };
    this.#timeoutMs = options.timeoutMs ?? 60_000;
  }

  async bytes(command: string, params: RpcParams): Promise<Uint8Array> {
    return this.#call(command, params, undefined, async (response) => {
      return new Uint8Array(await response.arrayBuffer());
    });
  }

  async json(command: string, params: RpcParams, body?: FormData): Promise<unknown> {
    return this.#call(command, params, body, async (response) =>
      parseJson(await response.text(), `Kubo ${command}`),
    );
  }

  /** Commands that stream one JSON object per line (`add`). */
  async jsonLines(command: string, params: RpcParams, body?: FormData): Promise<unknown[]> {
    return this.#call(command, params, body, async (response) =>
      (await response.text())
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => parseJson(line, `Kubo ${command}`)),
    );
  }

  async #call<T>(
    command: string,
    params: RpcParams,
    body: FormData | undefined,
    read: (response: Response) => Promise<T>,
  ): Promise<T> {
    const url = `${this.#apiUrl}/api/v0/${command}?${new URLSearchParams(params)}`;
    const what = `Kubo ${command}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: this.#headers,
        body: body ?? null,
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      throw unreachable(`${what} at ${this.#apiUrl}`, error);
    }
    if (!response.ok) throw await failure(what, response);
    try {
      return await read(response);
    } catch (error) {
      if (error instanceof IpfsError) throw error;
      // The answer broke off (connection reset, timeout while streaming).
      throw unreachable(`${what} at ${this.#apiUrl}`, error);
    }
  }
}

async function failure(what: string, response: Response): Promise<IpfsError> {
  const text = await response.text().catch(() => '');
  if (isGatewayFailure(response.status)) {
    return new IpfsError('ipfs_unreachable', `${what}: HTTP ${response.status} from a proxy`);
  }
  const kuboMessage = messageOf(text);
  // Only Kubo's own `{ Message }` is trusted to mean "not found": a 404 page from a wrong URL
  // says the same words about something else.
  if (kuboMessage !== undefined && NOT_FOUND_MESSAGE.test(kuboMessage)) {
    return new IpfsError('ipfs_not_found', `${what}: ${kuboMessage}`);
  }
  const detail = kuboMessage ?? (text.slice(0, 300) || 'no message');
  return new IpfsError('ipfs_failed', `${what}: HTTP ${response.status}: ${detail}`);
}

function messageOf(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) && typeof parsed.Message === 'string' ? parsed.Message : undefined;
  } catch {
    return undefined;
  }
}
