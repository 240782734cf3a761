// The console's only way to the API: the SDK's clients, called from the console's server with
// the operator's session token (a cookie of the console, forwarded as the API's cookie).
import {
  type FetchFunction,
  HallmarkAdminClient,
  HallmarkApiError,
  HallmarkClient,
  type Problem,
} from '@hallmark/sdk';
import { CONSOLE_CLIENT_HEADER, CONSOLE_PROOF_HEADER } from '@hallmark/service-keys';
import { cookies, headers } from 'next/headers';

/** Set by server.ts on every request: the browser's address and the proof the API checks. */
const FORWARDED = [CONSOLE_CLIENT_HEADER, CONSOLE_PROOF_HEADER] as const;

/** The API's session cookie, under which the console forwards the operator's token. */
export const API_SESSION_COOKIE = 'hallmark_session';
/**
 * The console's own cookie, holding the API's token: `__Host-` (Secure, only this host, every
 * path; no subdomain can set or shadow it) whenever Next.js runs as it does under server.ts, in
 * production mode; browsers accept Secure cookies from http://localhost too. Only `next dev`
 * uses the plain name.
 */
export const SESSION_COOKIE =
  process.env.NODE_ENV === 'production' ? '__Host-hallmark_session' : API_SESSION_COOKIE;

export function apiUrl(): string {
  return process.env.ADMIN_API_URL || 'http://127.0.0.1:3000';
}

type ResponseListener = (response: Response) => void;

async function forwardingFetch(
  sessionToken: string | undefined,
  onResponse: ResponseListener | undefined,
): Promise<FetchFunction> {
  const incoming = await headers();
  return async (url, init) => {
    const forwarded = new Headers(init.headers);
    if (sessionToken !== undefined) {
      forwarded.set('cookie', `${API_SESSION_COOKIE}=${sessionToken}`);
    }
    for (const name of FORWARDED) {
      const value = incoming.get(name);
      if (value) forwarded.set(name, value);
    }
    const response = await fetch(url, { ...init, headers: forwarded, cache: 'no-store' });
    onResponse?.(response);
    return response;
  };
}

// No retries: an operator sees a refusal at once and decides; a change is never sent twice.
const retry = { retries: 0 };

/**
 * The admin API as the signed-in operator (or as nobody, before sign-in). `onResponse` sees
 * each raw answer: sign-in reads the session cookie the API sets.
 */
export async function adminClient(onResponse?: ResponseListener): Promise<HallmarkAdminClient> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  return new HallmarkAdminClient({
    baseUrl: apiUrl(),
    fetch: await forwardingFetch(token, onResponse),
    retry,
  });
}

/** The public API (key requests), without any credential. */
export async function publicClient(): Promise<HallmarkClient> {
  return new HallmarkClient({
    baseUrl: apiUrl(),
    fetch: await forwardingFetch(undefined, undefined),
    retry,
  });
}

/**
 * An image sent as the body of a verification (`POST /public/verify`, or an operator's
 * `POST /admin/verifications` with `csrfToken`). The SDK's generated clients send JSON bodies
 * only, so the bytes go through the same forwarding fetch; a refusal is the same
 * HallmarkApiError the clients throw.
 */
export async function sendImage<Result>(
  path: '/public/verify' | '/admin/verifications',
  image: Blob,
  csrfToken?: string,
): Promise<Result> {
  const token = csrfToken === undefined ? undefined : (await cookies()).get(SESSION_COOKIE)?.value;
  const send = await forwardingFetch(token, undefined);
  const response = await send(`${apiUrl()}${path}`, {
    method: 'POST',
    headers: {
      'content-type': image.type || 'application/octet-stream',
      ...(csrfToken === undefined ? {} : { 'x-csrf-token': csrfToken }),
    },
    body: image,
  });
  const text = await response.text();
  let body: unknown = text === '' ? undefined : text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's error page): kept as text for the error.
  }
  if (response.ok) return body as Result;
  const problem = (body as Problem | undefined)?.type === undefined ? undefined : (body as Problem);
  throw new HallmarkApiError(response.status, problem, body);
}
