import { type HallmarkConfig } from '@hallmark/config';
import { CONFIG } from '@hallmark/runtime';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { type AdminRouteOptions, IS_ADMIN } from '../admin/admin-route.decorator.ts';
import { OperatorSessions } from '../admin/operator-sessions.ts';
import { clientAddress } from '../client-address.ts';
import { type RateLimitBucket, RateLimiter } from '../rate-limit/rate-limiter.service.ts';
import { Authenticator } from './authenticator.service.ts';
import type { AuthenticatedRequest } from './client.ts';
import { IS_PUBLIC, type PublicOptions } from './public.decorator.ts';

/**
 * Every route needs a bearer token unless marked @Public(). Each request counts against a rate
 * limit: an authenticated one against its key, a public one and a failed authentication against
 * the caller's address, so guessing keys or hammering signed links is limited too. The RateLimit
 * headers tell a client where it stands.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
    private readonly rateLimiter: RateLimiter,
    private readonly sessions: OperatorSessions,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const declared = this.reflector.getAllAndOverride<PublicOptions | undefined>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    const publicRoute =
      declared !== undefined && (declared.when === undefined || this.config[declared.when])
        ? declared
        : undefined;
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const reply = http.getResponse<FastifyReply>();
    const byAddress: RateLimitBucket = { kind: 'ip', address: clientAddress(request) };

    if (publicRoute !== undefined) {
      if (publicRoute.limited !== false) await this.#count(byAddress, reply);
      return true;
    }
    const admin = this.reflector.getAllAndOverride<AdminRouteOptions | undefined>(IS_ADMIN, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (admin !== undefined) {
      // Operators are people at a console: counted per address, like anonymous traffic.
      await this.#count(byAddress, reply);
      request.operator = await this.sessions.authorize(request, admin);
      return true;
    }
    try {
      request.client = await this.authenticator.authenticate(request.headers.authorization);
    } catch (error) {
      // Over the address's limit, the caller learns only that it must wait.
      await this.#count(byAddress, reply);
      throw error;
    }
    const { apiKeyId, rateLimitPerMinute } = request.client;
    const count = this.rateLimiter.enforce({ kind: 'key', apiKeyId, limit: rateLimitPerMinute });
    if (request.method === 'GET' || request.method === 'HEAD') {
      // A read changes nothing, so it runs while its count is on the way to Redis (one round
      // trip's time instead of two); an onSend hook (rate-limit/rate-limit-settlement.ts) then
      // answers the 429 in its place when the count says so. Handled now, awaited there: no
      // unhandled rejection meanwhile.
      count.catch(() => undefined);
      request.pendingRateLimit = count;
      return true;
    }
    reply.headers(await count);
    return true;
  }

  async #count(bucket: RateLimitBucket, reply: FastifyReply): Promise<void> {
    reply.headers(await this.rateLimiter.enforce(bucket));
  }
}
