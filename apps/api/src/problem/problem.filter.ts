import { LOGGER, type Logger } from '@hallmark/platform';
import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toProblem } from './to-problem.ts';

/** Every error response of the API is `application/problem+json` (RFC 9457). */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const { body, headers } = toProblem(error, request.url.split('?')[0] ?? request.url);
    if (body.status >= 500) {
      this.logger.error({ err: error, method: request.method, url: request.url }, 'request failed');
    }
    void reply
      .status(body.status)
      .headers(headers)
      .header('content-type', 'application/problem+json; charset=utf-8')
      .send(body);
  }
}
