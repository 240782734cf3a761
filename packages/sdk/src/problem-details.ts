import type { Problem } from './generated/openapi.ts';

/**
 * Reads RFC 9457 problem details out of an error body, or `undefined` when the body is not one
 * (an HTML page from a proxy, plain text, an empty 502). Lenient on purpose: RFC 9457 says a
 * missing `type` means `about:blank`, and a missing `status` is the response's own.
 */
export function parseProblem(body: unknown, responseStatus: number): Problem | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const fields: Record<string, unknown> = { ...body };
  const { type, title, status } = fields;
  if (typeof type !== 'string' && typeof title !== 'string') return undefined;
  const problem: Problem = {
    type: typeof type === 'string' ? type : 'about:blank',
    title: typeof title === 'string' ? title : '',
    status: typeof status === 'number' ? status : responseStatus,
  };
  if (typeof fields.detail === 'string') problem.detail = fields.detail;
  if (typeof fields.instance === 'string') problem.instance = fields.instance;
  const errors = fieldErrors(fields.errors);
  if (errors) problem.errors = errors;
  // Extension members other than `errors` are kept for callers that know them.
  return { ...fields, ...problem };
}

function fieldErrors(value: unknown): Problem['errors'] {
  if (!Array.isArray(value)) return undefined;
  return value.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const { path, message } = item as Record<string, unknown>;
    return typeof path === 'string' && typeof message === 'string' ? [{ path, message }] : [];
  });
}
