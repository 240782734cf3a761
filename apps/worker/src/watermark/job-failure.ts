import { JOB_ERROR_CODES, type JobErrorCode, jobErrorRetry } from '@hallmark/schemas';

/**
 * A failure that no retry can fix (bad image, unavailable technique, a reverted mint). The
 * pipeline fails the job at once with its code; anything else is retried with backoff.
 */
export class PermanentJobFailure extends Error {
  readonly code: JobErrorCode;

  constructor(code: JobErrorCode, message: string) {
    super(message);
    this.name = 'PermanentJobFailure';
    this.code = code;
  }
}

function knownCode(error: unknown): JobErrorCode | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && Object.hasOwn(JOB_ERROR_CODES, code)
    ? (code as JobErrorCode)
    : null;
}

/**
 * The packages report failures with typed errors carrying a stable `code` (and chain errors a
 * `retryable` flag); whether a known code is retried is its class in the schemas' table.
 */
export function asPermanentFailure(error: unknown): PermanentJobFailure | null {
  if (error instanceof PermanentJobFailure) return error;
  const code = knownCode(error);
  const retryable = (error as { retryable?: unknown }).retryable === true;
  if (code === null || retryable || jobErrorRetry(code) === 'transient') return null;
  // The client reads the catalogue's words for the code; the package's own message may name
  // files or hosts, so it stays in the worker's log.
  return new PermanentJobFailure(code, JOB_ERROR_CODES[code]);
}

/** The code a job ends with once its last attempt failed: the error's own, if it has one. */
export function finalFailureCode(error: unknown): JobErrorCode {
  return knownCode(error) ?? 'internal_error';
}
