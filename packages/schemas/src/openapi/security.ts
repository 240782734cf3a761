import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';

/** An OpenAPI security requirement: scheme name to required scopes. */
type SecurityRequirement = Record<string, string[]>;

/** Every JSON endpoint of the service takes `Authorization: Bearer <ACCESS_TOKEN>`. */
export const BEARER_AUTH = 'bearerAuth';

/** The admin API authenticates with the operator's session cookie, never with an API key. */
export const COOKIE_AUTH = 'cookieAuth';

export function registerSecuritySchemes(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', BEARER_AUTH, {
    type: 'http',
    scheme: 'bearer',
    description: 'Access token of the client, sent as `Authorization: Bearer <token>`.',
  });
  registry.registerComponent('securitySchemes', COOKIE_AUTH, {
    type: 'apiKey',
    in: 'cookie',
    name: 'hallmark_session',
    description: 'The session cookie `POST /admin/session` sets (httpOnly, SameSite=Strict).',
  });
}

/** Security of operations that need the token. */
export const bearerAuth: SecurityRequirement[] = [{ [BEARER_AUTH]: [] }];

/** Security of the admin API's operations. */
export const cookieAuth: SecurityRequirement[] = [{ [COOKIE_AUTH]: [] }];

/** Probes are called by orchestrators that hold no token. */
export const noAuth: SecurityRequirement[] = [];
