import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, isPrivateAddress } from '@hallmark/runtime';

/** What came back from one POST to an endpoint. */
export interface SendResult {
  readonly succeeded: boolean;
  readonly statusCode: number | null;
  readonly latencyMs: number;
  readonly responseExcerpt: string | null;
  readonly error: string | null;
}

export interface SendOptions {
  /** The whole attempt: connecting, the answer's headers and as much of its body as is read. */
  readonly timeoutMs: number;
  readonly allowPrivateAddresses: boolean;
}

/** Bytes of an answer that are read at most; the rest is never downloaded. */
const READ_CAP = 16 * 1024;
const EXCERPT_CHARS = 500;

/**
 * POSTs one delivery. An endpoint cannot hold a worker: one time limit covers the whole attempt,
 * at most READ_CAP bytes of the answer are read, redirects are not followed (a 3xx is a failure:
 * the endpoint must name where it lives), and addresses in private ranges are refused at connect
 * time unless the deployment allows them. Success is a 2xx status.
 */
export function sendWebhook(
  url: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivateAddresses && isIP(host) !== 0 && isPrivateAddress(host)) {
    // An IP literal is never looked up, so the lookup's guard would not see it.
    return Promise.resolve(failure(`${host} is a private address`, null, elapsed()));
  }
  return new Promise((resolve) => {
    let settled = false;
    let statusCode: number | null = null;
    const chunks: Buffer[] = [];
    let read = 0;
    const settle = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      const excerpt =
        read === 0 ? null : Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARS);
      const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
      const redirect = statusCode !== null && statusCode >= 300 && statusCode < 400;
      resolve({
        succeeded: ok,
        statusCode,
        latencyMs: elapsed(),
        responseExcerpt: excerpt,
        error: error ?? (redirect ? 'redirects are not followed' : null),
      });
    };
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'Hallmark-Webhooks/1',
        },
        // One connection per attempt: no pooled socket outlives it.
        agent: false,
        ...(options.allowPrivateAddresses ? {} : { lookup: guardedLookup }),
      },
      (response) => {
        statusCode = response.statusCode ?? null;
        response.on('data', (chunk: Buffer) => {
          if (read < READ_CAP) {
            chunks.push(chunk);
            read += chunk.length;
          }
          if (read >= READ_CAP) settle(null);
        });
        response.on('end', () => settle(null));
        response.on('error', () => settle(null));
      },
    );
    const timer = setTimeout(
      () => settle(statusCode === null ? `no answer within ${options.timeoutMs} ms` : null),
      options.timeoutMs,
    );
    request.on('error', (error) => settle(error.message));
    request.end(body);
  });
}

/** An attempt that got no usable answer, and why. */
export function failure(error: string, statusCode: number | null, latencyMs: number): SendResult {
  return { succeeded: false, statusCode, latencyMs, responseExcerpt: null, error };
}
