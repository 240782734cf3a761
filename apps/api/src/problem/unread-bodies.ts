import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/** How much of a body no one read is read and dropped before the answer goes out. */
const DRAIN_BYTES = 16 * 1024 * 1024;
/** How long a client still sending such a body is waited for. */
const DRAIN_MS = 10_000;

/**
 * An answer sent while its request body is still arriving (a 413 decided from Content-Length, an
 * error raised before the body was read) leaves after the rest of the body has been read and
 * dropped, up to DRAIN_BYTES and DRAIN_MS.
 *
 * Why: such an answer closes the connection (Fastify marks every body-parser error
 * `Connection: close`), and a socket closed with unread bytes is reset by the kernel; the client,
 * still writing, then gets EPIPE or ECONNRESET and often never reads the answer (RFC 9112 9.6,
 * "lingering close"). Past either bound the answer goes out anyway and the connection closes.
 */
export function drainUnreadBodies(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const raw = request.raw;
    if (received(raw) || raw.destroyed) {
      done(null, payload);
      return;
    }
    void drain(raw).then((whole) => {
      // What is left unread would otherwise be read after the answer, with no bound.
      if (!whole) reply.header('connection', 'close');
      done(null, payload);
    });
  });
}

/**
 * Whether the whole body has arrived: `complete` on a socket's request, `readableEnded` on the
 * in-process requests of `inject` (which have no `complete`) once read.
 */
function received(request: IncomingMessage): boolean {
  return request.complete || request.readableEnded;
}

/** Reads and drops the rest of `request`'s body; true when it was read to its end. */
function drain(request: IncomingMessage): Promise<boolean> {
  return new Promise((resolve) => {
    let read = 0;
    const finish = (): void => {
      clearTimeout(timer);
      request.off('data', onData);
      request.off('end', finish);
      request.off('close', finish);
      request.off('error', finish);
      request.pause();
      resolve(received(request));
    };
    const onData = (chunk: Buffer): void => {
      read += chunk.length;
      if (read > DRAIN_BYTES) finish();
    };
    const timer = setTimeout(finish, DRAIN_MS);
    request.on('data', onData);
    request.once('end', finish);
    request.once('close', finish);
    request.once('error', finish);
    request.resume();
  });
}

/**
 * The chunks of a request body, for a reader that may stop early (a size limit, a wrong type):
 * stopping leaves the rest unread rather than destroying the request, whose socket would go with
 * it before any answer; drainUnreadBodies then reads the rest before the answer goes out.
 */
export function bodyChunks(body: Readable): AsyncIterable<Buffer> {
  const chunks = body.iterator({ destroyOnReturn: false }) as AsyncIterator<Buffer>;
  return { [Symbol.asyncIterator]: () => chunks };
}
