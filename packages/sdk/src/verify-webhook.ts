import type { WebhookPayload } from './generated/openapi.ts';

// Checks a delivery as Standard Webhooks describes (https://www.standardwebhooks.com): the
// HMAC-SHA256 of `webhook-id.webhook-timestamp.body` under the endpoint's secret must match one
// of the `v1,` signatures, and the timestamp must be recent (replays of old deliveries fail).
// WebCrypto only, so it runs in Node 20+, browsers, Deno, Bun and edge runtimes.

/** A delivery that is not what the endpoint's secret signed, or not recent. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export type WebhookHeaders =
  | Headers
  | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyWebhookOptions {
  /** How far the timestamp may be from now, in seconds. Default 300. */
  readonly toleranceSeconds?: number;
  /** "Now" in Unix seconds, for tests. */
  readonly nowSeconds?: number;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return typeof value === 'string' ? value : value?.[0];
}

function base64ToBytes(value: string): Uint8Array<ArrayBuffer> {
  const binary = atob(value);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Compares without stopping at the first difference, so timing tells nothing. */
function sameText(a: string, b: string): boolean {
  let difference = a.length ^ b.length;
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    difference |= (a.charCodeAt(index) || 0) ^ (b.charCodeAt(index) || 0);
  }
  return difference === 0;
}

/**
 * Verifies a webhook delivery and returns its parsed body. `payload` is the raw body exactly as
 * received (parse it only after), `secret` the endpoint's `whsec_...` (several while rotating).
 * Throws WebhookVerificationError when headers are missing, the timestamp is not recent, or no
 * signature matches.
 */
export async function verifyWebhook(
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookPayload> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (id === undefined || timestamp === undefined || signatures === undefined) {
    throw new WebhookVerificationError(
      'missing webhook-id, webhook-timestamp or webhook-signature',
    );
  }
  const sentAt = Number(timestamp);
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (!/^\d+$/.test(timestamp) || Math.abs(now - sentAt) > tolerance) {
    throw new WebhookVerificationError('webhook-timestamp is not within the tolerance of now');
  }
  const body = typeof payload === 'string' ? payload : new TextDecoder().decode(payload);
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  const offered = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => entry.slice(3));
  for (const candidate of typeof secret === 'string' ? [secret] : secret) {
    const key = await crypto.subtle.importKey(
      'raw',
      base64ToBytes(candidate.startsWith('whsec_') ? candidate.slice(6) : candidate),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const expected = bytesToBase64(new Uint8Array(await crypto.subtle.sign('HMAC', key, signed)));
    if (offered.some((signature) => sameText(signature, expected))) {
      return JSON.parse(body) as WebhookPayload;
    }
  }
  throw new WebhookVerificationError('no signature matches the secret');
}
