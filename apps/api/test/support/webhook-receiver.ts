import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { HANG_MS } from '@hallmark/runtime/testing';

export interface ReceivedDelivery {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** What the receiver does with the n-th request (from 0): a status code, or never answer. */
export type Answer = (index: number) => number | 'hang';

/** A real HTTP endpoint on 127.0.0.1 that records every delivery it gets. */
export interface WebhookReceiver {
  readonly url: string;
  readonly received: ReceivedDelivery[];
  /** Resolves once `count` deliveries arrived (rejects after `timeoutMs`, default HANG_MS). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

export async function startReceiver(answer: Answer = () => 200): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const index = received.length;
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      for (const wake of waiters) wake();
      const status = answer(index);
      if (status === 'hang') return;
      response.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${status}`);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}/hooks`,
    received,
    waitFor(count, timeoutMs = HANG_MS) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          cleanup();
          resolve(received.slice(0, count));
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`${received.length} of ${count} deliveries within ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async close() {
      // A test may close its receiver early; closing it again is then nothing.
      if (!server.listening) return;
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * The event ids each outcome was told under, keyed `type subject` (`watermark.succeeded <job>`,
 * `verification.completed <verification>`, `batch.completed <batch>`). A repeated delivery adds
 * no id; an outcome told as two events shows two.
 */
export function idsByOutcome(received: readonly ReceivedDelivery[]): Map<string, Set<string>> {
  const outcomes = new Map<string, Set<string>>();
  for (const delivery of received) {
    const body = JSON.parse(delivery.body) as {
      type: string;
      data: { requestId?: string; verificationId?: string; batchId?: string };
    };
    // What the event is about: a job (its outcome, its mint), a verification or a batch.
    const about = body.data.requestId ?? body.data.verificationId ?? body.data.batchId;
    if (about === undefined) throw new Error(`an event of ${body.type} names nothing it is about`);
    const outcome = `${body.type} ${about}`;
    const ids = outcomes.get(outcome) ?? new Set<string>();
    ids.add(String(delivery.headers['webhook-id']));
    outcomes.set(outcome, ids);
  }
  return outcomes;
}
