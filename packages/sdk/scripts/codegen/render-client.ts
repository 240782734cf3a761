import type { OpenAPI3 } from 'openapi-typescript';
import { collectOperations, type OperationView } from './collect-operations.ts';
import { docComment, GENERATED_HEADER, quote } from './typescript-text.ts';

/**
 * `HallmarkClient`: one method per operation, typed from the generated `components` and
 * `operations`. Path parameters come first (in path order), then the JSON body (or an image's
 * bytes), then an options object with the headers and the abort signal.
 */
export function renderClient(document: OpenAPI3): string {
  const operations = collectOperations(document);
  const usesComponents = operations.some((operation) =>
    [operation.bodyType, operation.resultType].some((type) => type?.includes('components[')),
  );
  const typeImports = [usesComponents ? 'components' : '', 'operations'].filter(Boolean);
  return `${GENERATED_HEADER}
import {
  type HallmarkClientOptions,
  HttpTransport,
  type RequestOptions,
} from '../http.ts';
${operations.some((operation) => operation.imageBody) ? "import type { FileBytes } from '../upload.ts';\n" : ''}import type { ${typeImports.join(', ')} } from './openapi.ts';

${operations.flatMap(renderOptionsInterface).join('\n')}
/**
 * Client of the Hallmark API. Every method resolves with the documented JSON body and rejects
 * with a \`HallmarkApiError\` (carrying the RFC 9457 problem details) for any other answer.
 */
export class HallmarkClient {
  readonly #http: HttpTransport;

  /** Without options it calls \`HALLMARK_URL\` with \`HALLMARK_API_KEY\`, from the environment. */
  constructor(options: HallmarkClientOptions = {}) {
    this.#http = new HttpTransport(options);
  }
${operations
  .filter((operation) => !operation.admin)
  .map(renderMethod)
  .join('')}}

/**
 * Client of the admin API (\`/admin/*\`), for the admin console: it authenticates with the
 * operator's session cookie, which a browser sends by itself (a server passes it with its own
 * \`fetch\`), never with an API key. Changes need \`csrfToken\` from \`signIn\`.
 */
export class HallmarkAdminClient {
  readonly #http: HttpTransport;

  constructor(options: Omit<HallmarkClientOptions, 'token'> = {}) {
    this.#http = new HttpTransport(options);
  }
${operations
  .filter((operation) => operation.admin)
  .map(renderMethod)
  .join('')}}
`;
}

function optionsTypeOf(operation: OperationView): string {
  if (operation.headers.length === 0 && operation.query.length === 0) return 'RequestOptions';
  const name = operation.operationId;
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}Options`;
}

function renderOptionsInterface(operation: OperationView): string[] {
  if (operation.headers.length === 0 && operation.query.length === 0) return [];
  const member = (parameter: OperationView['headers'][number], where: string) =>
    `${docComment([parameter.description, `Sent as the \`${parameter.name}\` ${where}.`], '  ')}  readonly ${parameter.option}${parameter.required ? '' : '?'}: ${parameter.type}${parameter.required ? '' : ' | undefined'};\n`;
  const members = [
    ...operation.headers.map((header) => member(header, 'header')),
    ...operation.query.map((parameter) => member(parameter, 'query parameter')),
  ];
  return [
    `/** Options of \`${operation.admin ? 'HallmarkAdminClient' : 'HallmarkClient'}.${operation.operationId}\`. */\nexport interface ${optionsTypeOf(operation)} extends RequestOptions {\n${members.join('')}}\n`,
  ];
}

function renderMethod(operation: OperationView): string {
  const optionsRequired = [...operation.headers, ...operation.query].some(
    (parameter) => parameter.required,
  );
  const parameters = [
    ...operation.pathParams.map((param) => `${param.name}: ${param.type}`),
    ...(operation.bodyType ? [`body: ${operation.bodyType}`] : []),
    ...(operation.imageBody ? ['image: FileBytes'] : []),
    optionsRequired
      ? `options: ${optionsTypeOf(operation)}`
      : `options: ${optionsTypeOf(operation)} = {}`,
  ];
  const request = [
    `method: ${quote(operation.method)}`,
    `path: ${quote(operation.path)}`,
    ...(operation.pathParams.length > 0
      ? [`pathParams: { ${operation.pathParams.map((param) => param.name).join(', ')} }`]
      : []),
    ...(operation.bodyType ? ['body'] : []),
    ...(operation.imageBody ? ['rawBody: image'] : []),
    ...(operation.headers.length > 0
      ? [
          `headers: { ${operation.headers
            .map((header) => `${quote(header.name)}: options.${header.option}`)
            .join(', ')} }`,
        ]
      : []),
    ...(operation.query.length > 0
      ? [
          `query: { ${operation.query
            .map((parameter) => `${quote(parameter.name)}: options.${parameter.option}`)
            .join(', ')} }`,
        ]
      : []),
    `authenticated: ${operation.authenticated}`,
    `resultStatuses: [${operation.resultStatuses.join(', ')}]`,
    'signal: options.signal',
  ];
  const doc = docComment(
    [
      operation.summary,
      operation.description,
      `\`${operation.method} ${operation.path}\`${operation.authenticated ? ' (bearer token)' : ''}`,
    ],
    '  ',
  );
  return `
${doc}  ${operation.operationId}(
${parameters.map((parameter) => `    ${parameter},\n`).join('')}  ): Promise<${operation.resultType}> {
    return this.#http.request({
${request.map((line) => `      ${line},\n`).join('')}    });
  }
`;
}
