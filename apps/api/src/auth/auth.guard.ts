import { problemTypes } from '@hallmark/schemas';
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { ProblemException } from '../problem/problem.exception.ts';
import { RateLimiter } from '../rate-limit/rate-limiter.service.ts';
import { Authenticator } from './authenticator.service.ts';
import type { AuthenticatedRequest } from './client.ts';
import { IS_PUBLIC } from './public.decorator.ts';

/**
 * Every route needs a bearer token unless marked @Public(). After authentication each request
 * counts against its key's rate limit; the RateLimit headers tell a client where it stands.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
    private readonly rateLimiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic === true) return true;

    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const reply = http.getResponse<FastifyReply>();
    const client = await this.authenticator.authenticate(request.headers.authorization);
    request.client = client;

    const state = await this.rateLimiter.consume(client.apiKeyId);
    if (state === null) return true;
    const headers = {
      'ratelimit-limit': String(state.limit),
      'ratelimit-remaining': String(state.remaining),
      'ratelimit-reset': String(state.resetSeconds),
    };
    if (!state.allowed) {
      throw new ProblemException(
        problemTypes.rateLimited,
        `More than ${state.limit} requests in a minute; retry in ${state.resetSeconds} s.`,
        undefined,
        { ...headers, 'retry-after': String(state.resetSeconds) },
      );
    }
    reply.headers(headers);
    return true;
  }
}
