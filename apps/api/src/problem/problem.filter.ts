import { type Logger } from '@hallmark/config';
import { LOGGER } from '@hallmark/runtime';
import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from './send-problem.ts';

/** Every error response of the API is `application/problem+json` (RFC 9457). */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendProblem(
      error,
      http.getRequest<FastifyRequest>(),
      http.getResponse<FastifyReply>(),
      this.logger,
    );
  }
}
