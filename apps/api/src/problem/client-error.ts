import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '@hallmark/config';
import { type Problem, problemTypes } from '@hallmark/schemas';
import type { FrameworkProblem } from './framework-problems.ts';

/** The most the request line and headers may take: Node's default, set here so it stays ours. */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * Node's HTTP parser rejects some requests before Fastify ever sees them: headers over
 * `maxHeaderSize` (16 KiB), a NUL or control byte in a header, a malformed request line, a request
 * not received in time. It then emits the server's `clientError` with the bare socket, and no one
 * else answers: this writes the problem+json response to the socket itself and closes it.
 */
export function clientErrorHandler(logger: Logger): (error: Error, socket: Socket) => void {
  return (error, socket) => {
    const code = (error as { code?: unknown }).code;
    // A reset or closed socket has no one left to answer.
    if (code === 'ECONNRESET' || socket.destroyed) return;
    const { problem, detail } = problemOfParserError(code);
    // Not the error itself: its `rawPacket` holds the request's bytes, credentials included.
    logger.debug({ code, status: problem.status }, 'client error');
    if (socket.writable && !responseStarted(socket)) {
      const body: Problem = { ...problem, detail };
      const json = JSON.stringify(body);
      socket.write(
        `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ''}\r\n` +
          'Content-Type: application/problem+json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(json)}\r\n` +
          'Cache-Control: no-store\r\n' +
          'Connection: close\r\n\r\n' +
          json,
      );
    }
    socket.destroySoon();
  };
}

function problemOfParserError(code: unknown): FrameworkProblem {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        problem: problemTypes.headerFieldsTooLarge,
        detail: `The request line and headers together exceed ${MAX_HEADER_BYTES / 1024} KiB.`,
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        problem: problemTypes.requestTimeout,
        detail: 'The request was not received in full in time.',
      };
    default:
      return {
        problem: problemTypes.malformedRequest,
        detail:
          'The request is not valid HTTP/1.1: a header holds a forbidden byte (such as NUL or a control character), or the request line or framing is malformed.',
      };
  }
}

/**
 * On a kept-alive connection the error may come while an earlier response is being written;
 * a second status line would corrupt it (Node's own default handler checks the same).
 */
function responseStarted(socket: Socket): boolean {
  const current = (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  return current?.headersSent === true;
}
