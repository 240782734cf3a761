import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** Who is calling: the API key behind the bearer, and whether it came as the key or a token. */
export interface Client {
  readonly apiKeyId: string;
  readonly via: 'api_key' | 'access_token';
}

export type AuthenticatedRequest = FastifyRequest & { client?: Client };

/** The authenticated caller of the current request (set by the auth guard). */
export const CurrentClient = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const client = context.switchToHttp().getRequest<AuthenticatedRequest>().client;
  if (client === undefined) throw new Error('CurrentClient used on a route without the auth guard');
  return client;
});
