import type { ApiRoute } from '@hallmark/schemas/routes';
import {
  applyDecorators,
  createParamDecorator,
  type ExecutionContext,
  HttpCode,
  RequestMapping,
  RequestMethod,
  SetMetadata,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { parseOperationInput } from './operation-input.ts';

const OPERATION = 'hallmark:operation';

/** The methods the API's operations use (HEAD and OPTIONS are answered by the framework). */
const METHODS: Partial<Record<ApiRoute['method'], RequestMethod>> = {
  get: RequestMethod.GET,
  post: RequestMethod.POST,
  put: RequestMethod.PUT,
  delete: RequestMethod.DELETE,
  patch: RequestMethod.PATCH,
};

function routerMethod(route: ApiRoute): RequestMethod {
  const method = METHODS[route.method];
  if (method === undefined) throw new Error(`${route.operationId}: no handler for ${route.method}`);
  return method;
}

/** `/nft/{tokenId}` as the router writes it: `/nft/:tokenId`. */
function routerPath(path: string): string {
  return path.replaceAll(/\{(\w+)\}/g, ':$1');
}

/** The status of a success: the operation's one documented 2xx answer. */
function successStatus(route: ApiRoute): number {
  const statuses = Object.keys(route.responses).filter((status) => /^2\d\d$/.test(status));
  if (statuses.length !== 1 || statuses[0] === undefined) {
    throw new Error(`${route.operationId} documents ${statuses.length} success statuses, not one`);
  }
  return Number(statuses[0]);
}

/**
 * Serves a handler as one operation of the route table: its method, path and success status come
 * from there, and `@Input()` gives the handler the request checked against its schemas. Put it
 * on handlers of a `@Controller()` without a path, so the table's path is the whole path.
 */
export function Operation(route: ApiRoute): MethodDecorator {
  return applyDecorators(
    RequestMapping({ method: routerMethod(route), path: routerPath(route.path) }),
    HttpCode(successStatus(route)),
    SetMetadata(OPERATION, route),
  );
}

/** The handler's request, checked against its operation (a 400 problem when it is not valid). */
export const Input = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const route: unknown = Reflect.getMetadata(OPERATION, context.getHandler());
  if (route === undefined) throw new Error('@Input() needs the handler to be an @Operation()');
  return parseOperationInput(
    route as ApiRoute,
    context.switchToHttp().getRequest<FastifyRequest>(),
  );
});
