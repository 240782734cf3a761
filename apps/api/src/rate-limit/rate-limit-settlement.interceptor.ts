import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { catchError, mergeMap, type Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/client.ts';

/**
 * The other half of AuthGuard's concurrent count for reads: the answer waits for the count,
 * takes its RateLimit headers, and is replaced by the 429 when the key is over its limit (the
 * 429 also wins over the handler's own error).
 */
@Injectable()
export class RateLimitSettlement implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const pending = http.getRequest<AuthenticatedRequest>().pendingRateLimit;
    if (pending === undefined) return next.handle();
    const reply = http.getResponse<FastifyReply>();
    const settle = async () => {
      reply.headers(await pending);
    };
    return next.handle().pipe(
      mergeMap(async (body: unknown) => {
        await settle();
        return body;
      }),
      catchError(async (error: unknown) => {
        await settle();
        throw error;
      }),
    );
  }
}
