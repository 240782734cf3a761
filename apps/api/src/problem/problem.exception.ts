import { type FieldError, type ProblemType, problemTypes, type QuotaName } from '@hallmark/schemas';

/**
 * The one way a handler reports an error to the client: a catalogued problem type, a detail for
 * humans and, for validation failures, one entry per field. The filter renders it as RFC 9457
 * problem+json, with any extension members (such as `quota` and `limit`) beside the standard ones.
 */
export class ProblemException extends Error {
  constructor(
    readonly problem: ProblemType,
    readonly detail?: string,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
    readonly extensions: { readonly quota?: QuotaName; readonly limit?: number } = {},
  ) {
    super(detail ?? problem.title);
    this.name = 'ProblemException';
  }

  /** The same problem about one item of a list (a batch's `items[3]`): named in detail and errors. */
  forItem(path: string): ProblemException {
    const detail = `${path}: ${this.detail ?? this.problem.title}`;
    const errors = [{ path: `${path}.fileId`, message: this.detail ?? this.problem.title }];
    return new ProblemException(this.problem, detail, errors, this.headers, this.extensions);
  }

  static notFound(detail: string): ProblemException {
    return new ProblemException(problemTypes.notFound, detail);
  }

  static alreadyDecided(detail: string): ProblemException {
    return new ProblemException(problemTypes.alreadyDecided, detail);
  }

  /** 429 naming the quota and its limit; `retryAfterSeconds` when waiting helps (a new day). */
  static quotaExceeded(
    quota: QuotaName,
    limit: number,
    detail: string,
    retryAfterSeconds?: number,
  ): ProblemException {
    return new ProblemException(
      problemTypes.quotaExceeded,
      detail,
      undefined,
      retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) },
      { quota, limit },
    );
  }
}
