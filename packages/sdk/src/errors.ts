import type { Problem } from './generated/openapi.ts';

/**
 * The API answered with a status the operation does not document as a result. Every documented
 * error of the Hallmark API is RFC 9457 problem+json, so `problem` is set whenever the answer
 * came from the API itself; it is `undefined` for answers such as a proxy's HTML error page,
 * whose text is then in `body`.
 */
export class HallmarkApiError extends Error {
  override readonly name = 'HallmarkApiError';
  /** HTTP status of the response. */
  readonly status: number;
  /** The problem details, when the body was one. */
  readonly problem: Problem | undefined;
  /** The decoded body: parsed JSON, text, or `undefined` when empty. */
  readonly body: unknown;

  constructor(status: number, problem: Problem | undefined, body: unknown, message?: string) {
    super(message ?? describe(status, problem));
    this.status = status;
    this.problem = problem;
    this.body = body;
  }

  /** The problem type URI, e.g. `https://hallmark.dev/problems/not-found` (see `problemTypes`). */
  get type(): string | undefined {
    return this.problem?.type;
  }

  /** The problem title, e.g. `Resource not found`. */
  get title(): string | undefined {
    return this.problem?.title;
  }
}

/** `400 Request validation failed: <detail> (options.watermarkType[1]: Invalid option…)`. */
function describe(status: number, problem: Problem | undefined): string {
  if (!problem) return `Hallmark API answered ${status} without problem details`;
  const detail = problem.detail ? `: ${problem.detail}` : '';
  const fields = problem.errors?.length
    ? ` (${problem.errors.map((error) => `${error.path || '(body)'}: ${error.message}`).join('; ')})`
    : '';
  return `${status} ${problem.title}${detail}${fields}`;
}
