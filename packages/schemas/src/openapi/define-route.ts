import type { RouteConfig } from '@asteasolutions/zod-to-openapi';

/** One operation of the API, as the document describes it and the API validates it. */
export type ApiRoute = RouteConfig & { readonly operationId: string };

/**
 * Identity at run time; for the compiler it keeps each route's own schemas, so that the API's
 * handlers get the types of exactly what their operation accepts.
 */
export function defineRoute<const Route extends ApiRoute>(route: Route): Route {
  return route;
}
