import type { ApiRoute, OperationId, ROUTES } from '@hallmark/schemas/routes';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseRequest } from './parse-request.ts';

type Output<Schema> = Schema extends z.ZodType ? z.output<Schema> : undefined;
type RequestOf<Route> = Route extends { readonly request: infer Request } ? Request : object;
type PartOf<Route, Part extends string> =
  RequestOf<Route> extends { readonly [P in Part]: infer S } ? S : undefined;
type JsonBodyOf<Route> =
  RequestOf<Route> extends {
    readonly body: {
      readonly content: { readonly 'application/json': { readonly schema: infer S } };
    };
  }
    ? S
    : undefined;

/** What an operation accepts, checked against its schemas in the route table. */
export interface OperationInput<Route> {
  readonly params: Output<PartOf<Route, 'params'>>;
  readonly query: Output<PartOf<Route, 'query'>>;
  readonly headers: Output<PartOf<Route, 'headers'>>;
  /** The JSON body; other bodies (images) are read by their handler. */
  readonly body: Output<JsonBodyOf<Route>>;
}

/** The checked input of the operation named `Id`. */
export type InputOf<Id extends OperationId> = OperationInput<(typeof ROUTES)[Id]>;

/**
 * Checks each part of a request against the operation's schemas, in the order path, query,
 * headers, body; the first part that fails answers 400 with every offending field of it.
 */
export function parseOperationInput<Route extends ApiRoute>(
  route: Route,
  request: FastifyRequest,
): OperationInput<Route> {
  const parts = route.request ?? {};
  const params = parts.params && parseRequest(parts.params, request.params, 'path');
  const query = parts.query && parseRequest(parts.query, request.query, 'query');
  const headers =
    parts.headers instanceof z.ZodObject
      ? parseRequest(parts.headers, headersNamedIn(parts.headers, request), 'headers')
      : undefined;
  const json = parts.body?.content['application/json'];
  const bodySchema = json !== undefined && 'schema' in json ? json.schema : undefined;
  const body =
    bodySchema instanceof z.ZodType ? parseRequest(bodySchema, request.body, 'body') : undefined;
  return { params, query, headers, body } as OperationInput<Route>;
}

/** The headers a schema names, under the names it writes them with (HTTP's are lower case). */
function headersNamedIn(schema: z.ZodObject, request: FastifyRequest): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(schema.shape).map((name) => [name, request.headers[name.toLowerCase()]]),
  );
}
