import type { Operator } from '@hallmark/db';

/** The signed-in operator of an admin route, as `@CurrentOperator()` gives it. */
export type { Operator };

import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** Who is calling: the API key behind the bearer, and whether it came as the key or a token. */
export interface Client {
  readonly apiKeyId: string;
  /** The key's own rate limit; null: RATE_LIMIT_PER_MINUTE. */
  readonly rateLimitPerMinute: number | null;
  readonly via: 'api_key' | 'access_token';
}

export type AuthenticatedRequest = FastifyRequest & {
  client?: Client;
  operator?: Operator;
  /** A read's rate-limit count, still on its way (see AuthGuard): its headers, or its 429. */
  pendingRateLimit?: Promise<Record<string, string>>;
};

/** The authenticated caller of the current request (set by the auth guard). */
export const CurrentClient = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const client = context.switchToHttp().getRequest<AuthenticatedRequest>().client;
  if (client === undefined) throw new Error('CurrentClient used on a route without the auth guard');
  return client;
});

/** The signed-in operator of an admin route (set by the auth guard). */
export const CurrentOperator = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const operator = context.switchToHttp().getRequest<AuthenticatedRequest>().operator;
  if (operator === undefined)
    throw new Error('CurrentOperator used on a route that is not an admin route');
  return operator;
});
