import { HallmarkApiError } from './errors.ts';
import { parseProblem } from './problem-details.ts';
import { retryAfterMs } from './retry.ts';

export type DecodedBody =
  | { kind: 'empty'; value: undefined }
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; value: string };

/**
 * JSON when the body parses as JSON, whatever its declared type (some proxies relabel
 * problem+json), else the text itself so an error can still show what came back.
 */
export async function readBody(response: Response): Promise<DecodedBody> {
  const text = await response.text();
  if (text === '') return { kind: 'empty', value: undefined };
  try {
    return { kind: 'json', value: JSON.parse(text) };
  } catch {
    return { kind: 'text', value: text };
  }
}

/** The one way an unwanted answer (from the API or from a signed storage link) becomes an error. */
export async function errorFromResponse(
  response: Response,
  body?: DecodedBody,
): Promise<HallmarkApiError> {
  const decoded = body ?? (await readBody(response));
  const problem =
    decoded.kind === 'json' ? parseProblem(decoded.value, response.status) : undefined;
  return new HallmarkApiError(response.status, problem, decoded.value, {
    retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
  });
}
