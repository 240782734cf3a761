import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';

/** An OpenAPI security requirement: scheme name to required scopes. */
type SecurityRequirement = Record<string, string[]>;

/** Spec 5: every JSON endpoint takes `Authorization: Bearer <ACCESS_TOKEN>`. */
export const BEARER_AUTH = 'bearerAuth';

export function registerBearerAuth(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', BEARER_AUTH, {
    type: 'http',
    scheme: 'bearer',
    description: 'Access token of the client, sent as `Authorization: Bearer <token>`.',
  });
}

/** Security of operations that need the token. */
export const bearerAuth: SecurityRequirement[] = [{ [BEARER_AUTH]: [] }];

/** Probes are called by orchestrators that hold no token. */
export const noAuth: SecurityRequirement[] = [];
