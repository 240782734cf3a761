import type {
  Problem,
  VerificationJob,
  WatermarkJob,
  WatermarkJobError,
} from './generated/openapi.ts';

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
  /**
   * The wait the server asked for with `Retry-After`, in ms. Set when the SDK stopped retrying
   * (retries used up, or a longer wait than `retry.maxDelayMs`), so callers can schedule later.
   */
  readonly retryAfterMs: number | undefined;

  constructor(
    status: number,
    problem: Problem | undefined,
    body: unknown,
    options: { readonly message?: string; readonly retryAfterMs?: number | undefined } = {},
  ) {
    super(options.message ?? describe(status, problem));
    this.status = status;
    this.problem = problem;
    this.body = body;
    this.retryAfterMs = options.retryAfterMs;
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

/**
 * Whether `error` is a `HallmarkApiError` of the given problem type, e.g.
 * `isProblem(error, problemTypes.rateLimited)`. Narrows `error` for the caller.
 */
export function isProblem(
  error: unknown,
  problemType: { readonly type: string } | string,
): error is HallmarkApiError {
  const type = typeof problemType === 'string' ? problemType : problemType.type;
  return error instanceof HallmarkApiError && error.type === type;
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

/**
 * The job reached `failed`. Thrown (not returned) by `waitForJob` so that `watermarkFile` and
 * other callers cannot mistake a failed job for a finished one. `code` is one of the stable job
 * error codes (`invalid_image`, `image_too_small`, …); the message reads `code: explanation`.
 */
export class WatermarkJobFailedError extends Error {
  override readonly name = 'WatermarkJobFailedError';
  /** The job as last polled, `status: 'failed'`. */
  readonly job: WatermarkJob;
  /** Why it failed, as the API reported it. */
  readonly jobError: WatermarkJobError;

  constructor(job: WatermarkJob) {
    // A failed job always carries `error`; the fallback only guards against a broken server.
    const jobError = job.error ?? { code: 'unknown', message: 'the job failed without a reason' };
    super(`${jobError.code}: ${jobError.message}`);
    this.job = job;
    this.jobError = jobError;
  }

  get code(): string {
    return this.jobError.code;
  }
}

/** `waitForJob` gave up after `timeoutMs`; the job itself may still finish later. */
export class WaitTimeoutError extends Error {
  override readonly name = 'WaitTimeoutError';
  readonly requestId: string;
  readonly timeoutMs: number;
  /** The job (watermark job or verification) as last polled, if any poll answered. */
  readonly lastJob: { readonly status: string } | undefined;

  constructor(
    requestId: string,
    timeoutMs: number,
    lastJob: { readonly status: string } | undefined,
  ) {
    super(
      `Job ${requestId} did not finish within ${timeoutMs} ms` +
        (lastJob ? ` (last status: ${lastJob.status})` : ''),
    );
    this.requestId = requestId;
    this.timeoutMs = timeoutMs;
    this.lastJob = lastJob;
  }
}

/**
 * `watermarkFile` could not tell the file's media type: no `contentType` option, no `Blob.type`,
 * and no known extension on the file name. Pass `contentType` explicitly.
 */
export class UnknownContentTypeError extends Error {
  override readonly name = 'UnknownContentTypeError';
  readonly fileName: string | undefined;

  constructor(fileName: string | undefined) {
    super(
      `Cannot tell the media type of ${fileName ? `"${fileName}"` : 'the file'}: pass contentType (e.g. 'image/jpeg')`,
    );
    this.fileName = fileName;
  }
}

/** A verification ended `failed` (the image could not be read); `code` says why. */
export class VerificationFailedError extends Error {
  override readonly name = 'VerificationFailedError';
  readonly verification: VerificationJob;
  readonly code: string;

  constructor(verification: VerificationJob) {
    const reason = verification.error ?? { code: 'unknown', message: 'failed without a reason' };
    super(`${reason.code}: ${reason.message}`);
    this.verification = verification;
    this.code = reason.code;
  }
}
