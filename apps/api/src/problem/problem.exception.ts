import { type FieldError, type ProblemType, problemTypes } from '@hallmark/schemas';

/**
 * The one way a handler reports an error to the client: a catalogued problem type, a detail for
 * humans and, for validation failures, one entry per field. The filter renders it as RFC 9457
 * problem+json.
 */
export class ProblemException extends Error {
  constructor(
    readonly problem: ProblemType,
    readonly detail?: string,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ?? problem.title);
    this.name = 'ProblemException';
  }

  static notFound(detail: string): ProblemException {
    return new ProblemException(problemTypes.notFound, detail);
  }
}
