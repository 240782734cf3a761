import type {
  MediaTypeObject,
  OpenAPI3,
  OperationObject,
  ParameterObject,
  ReferenceObject,
} from 'openapi-typescript';
import { quote } from './typescript-text.ts';

/** What the client generator needs to know about one operation. */
export interface OperationView {
  readonly operationId: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly summary: string;
  readonly description: string;
  /** In the order they appear in the path: they become the leading positional arguments. */
  readonly pathParams: readonly { name: string; type: string }[];
  /** Type of the JSON request body, when the operation takes one. */
  readonly bodyType: string | undefined;
  /**
   * The body is an image's bytes (`image/*`, binary), sent as they are with its `Content-Type`:
   * the method takes the bytes and a required `contentType` option.
   */
  readonly imageBody: boolean;
  readonly headers: readonly HeaderView[];
  /** Query parameters: options of the method, like the headers. */
  readonly query: readonly HeaderView[];
  /** Sends the bearer token (`bearerAuth`); the admin API authenticates by its session cookie. */
  readonly authenticated: boolean;
  /** The client class it belongs to: `HallmarkAdminClient` for the `Admin` tag. */
  readonly admin: boolean;
  /** Statuses documented with an `application/json` body; all other statuses are errors. */
  readonly resultStatuses: readonly number[];
  readonly resultType: string;
}

export interface HeaderView {
  readonly name: string;
  /** camelCase name of the option that carries it, e.g. `idempotencyKey`. */
  readonly option: string;
  readonly required: boolean;
  readonly description: string;
  readonly type: string;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const JSON_MEDIA_TYPE = 'application/json';
const IMAGE_MEDIA_RANGE = 'image/*';

/**
 * Reads the operations out of the document in document order. Anything the generator does not
 * support (references to shared parameters, non-JSON bodies, missing operationIds) stops
 * generation with a message rather than producing a client that silently lacks it.
 */
export function collectOperations(document: OpenAPI3): OperationView[] {
  const views: OperationView[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (isReference(item)) throw new Error(`${path}: path item $ref is not supported`);
    for (const method of METHODS) {
      const operation = item[method];
      if (operation === undefined) continue;
      if (isReference(operation)) throw new Error(`${method} ${path}: $ref is not supported`);
      // Binary answers and multipart bodies: the SDK has a hand-written helper instead.
      if ((operation as Record<string, unknown>)['x-hallmark-sdk'] === 'hand-written') continue;
      views.push(viewOf(document, path, method, operation));
    }
  }
  return views;
}

function viewOf(
  document: OpenAPI3,
  path: string,
  method: (typeof METHODS)[number],
  operation: OperationObject,
): OperationView {
  const where = `${method.toUpperCase()} ${path}`;
  const { operationId } = operation;
  if (operationId === undefined || !IDENTIFIER.test(operationId)) {
    throw new Error(`${where}: needs an operationId that is a valid identifier`);
  }
  const op = `operations[${quote(operationId)}]`;
  const parameters = (operation.parameters ?? []).map((parameter) => {
    if (isReference(parameter)) throw new Error(`${where}: parameter $ref is not supported`);
    return parameter;
  });

  const resultStatuses: number[] = [];
  const resultTypes: string[] = [];
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    if (isReference(response))
      throw new Error(`${where} ${status}: response $ref is not supported`);
    const media = response.content?.[JSON_MEDIA_TYPE];
    if (status === '204' && response.content === undefined) {
      // No content is a result too: the call resolves to nothing.
      resultStatuses.push(204);
      resultTypes.push('void');
      continue;
    }
    if (media === undefined) continue;
    if (!/^\d{3}$/.test(status)) throw new Error(`${where} ${status}: JSON result needs a status`);
    resultStatuses.push(Number(status));
    resultTypes.push(
      schemaType(media, `${op}['responses'][${status}]['content'][${quote(JSON_MEDIA_TYPE)}]`),
    );
  }
  if (resultStatuses.length === 0) throw new Error(`${where}: no response with a JSON body or 204`);
  const imageBody = isImageBody(operation, where);

  return {
    operationId,
    method: method.toUpperCase() as OperationView['method'],
    path,
    summary: operation.summary ?? '',
    description: operation.description ?? '',
    pathParams: pathParamsOf(path, parameters, op, where),
    bodyType: imageBody ? undefined : bodyTypeOf(operation, op, where),
    imageBody,
    headers: [
      ...parameters
        .filter((parameter) => parameter.in === 'header')
        .map((parameter) => headerViewOf(parameter, op, where)),
      ...(imageBody ? [CONTENT_TYPE_OPTION] : []),
    ],
    query: parameters
      .filter((parameter) => parameter.in === 'query')
      .map((parameter) => parameterViewOf(parameter, op, where, 'query')),
    authenticated: (operation.security ?? document.security ?? []).some(
      (requirement) => 'bearerAuth' in requirement,
    ),
    admin: (operation.tags ?? []).includes('Admin'),
    resultStatuses,
    resultType: [...new Set(resultTypes)].join(' | '),
  };
}

function pathParamsOf(
  path: string,
  parameters: readonly ParameterObject[],
  op: string,
  where: string,
): OperationView['pathParams'] {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
  for (const name of names) {
    if (!IDENTIFIER.test(name))
      throw new Error(`${where}: path parameter ${name} is not an identifier`);
    if (!parameters.some((parameter) => parameter.in === 'path' && parameter.name === name)) {
      throw new Error(`${where}: path parameter ${name} is not declared`);
    }
  }
  return names.map((name) => ({ name, type: `${op}['parameters']['path'][${quote(name)}]` }));
}

/** The `Content-Type` of an image body: required, because the API checks it against the bytes. */
const CONTENT_TYPE_OPTION: HeaderView = {
  name: 'content-type',
  option: 'contentType',
  required: true,
  description: "The image's media type, e.g. `image/jpeg`; the API refuses bytes of another type.",
  type: 'string',
};

/** A required body of raw image bytes, and nothing else. */
function isImageBody(operation: OperationObject, where: string): boolean {
  const body = operation.requestBody;
  if (body === undefined || isReference(body)) return false;
  const media = body.content[IMAGE_MEDIA_RANGE];
  if (media === undefined) return false;
  if (Object.keys(body.content).length !== 1 || body.required !== true) {
    throw new Error(`${where}: an image body must be required and the only media type`);
  }
  const schema = isReference(media) ? undefined : media.schema;
  if (schema === undefined || isReference(schema) || schema.format !== 'binary') {
    throw new Error(`${where}: an image body must be a binary string`);
  }
  return true;
}

function bodyTypeOf(operation: OperationObject, op: string, where: string): string | undefined {
  const body = operation.requestBody;
  if (body === undefined) return undefined;
  if (isReference(body)) throw new Error(`${where}: request body $ref is not supported`);
  const media = body.content[JSON_MEDIA_TYPE];
  if (media === undefined || isReference(media)) {
    throw new Error(`${where}: only inline application/json request bodies are supported`);
  }
  if (body.required !== true)
    throw new Error(`${where}: optional request bodies are not supported`);
  return schemaType(media, `${op}['requestBody']['content'][${quote(JSON_MEDIA_TYPE)}]`);
}

function headerViewOf(parameter: ParameterObject, op: string, where: string): HeaderView {
  return parameterViewOf(parameter, op, where, 'header');
}

function parameterViewOf(
  parameter: ParameterObject,
  op: string,
  where: string,
  location: 'header' | 'query',
): HeaderView {
  // `X-CSRF-Token` becomes `csrfToken`: the `X-` of a header is no part of its meaning.
  const option = camelCase(
    location === 'header' ? parameter.name.replace(/^x-/i, '') : parameter.name,
  );
  if (!IDENTIFIER.test(option))
    throw new Error(`${where}: ${location} ${parameter.name} has no option name`);
  const required = parameter.required === true;
  const headers = `${op}['parameters'][${quote(location)}]`;
  return {
    name: parameter.name,
    option,
    required,
    description: parameter.description ?? '',
    // openapi-typescript makes the whole object optional when none of its members is required.
    type: `${required ? headers : `NonNullable<${headers}>`}[${quote(parameter.name)}]`,
  };
}

/** A named component when the schema is a reference to one (readable hovers), else the path. */
function schemaType(media: MediaTypeObject | ReferenceObject, fallback: string): string {
  const schema = 'schema' in media ? media.schema : undefined;
  const match =
    schema && '$ref' in schema && typeof schema.$ref === 'string'
      ? /^#\/components\/schemas\/([^/]+)$/.exec(schema.$ref)
      : null;
  return match?.[1] ? `components['schemas'][${quote(match[1])}]` : fallback;
}

function isReference(value: object): value is ReferenceObject {
  return '$ref' in value;
}

/** `Idempotency-Key` becomes `idempotencyKey`. */
function camelCase(name: string): string {
  return name
    .toLowerCase()
    .replace(/[-_\s]+([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}
