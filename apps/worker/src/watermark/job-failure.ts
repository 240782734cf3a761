import { JOB_ERROR_CODES, type JobErrorCode } from '@hallmark/schemas';

/**
 * A failure that no retry can fix (bad image, unavailable technique). The pipeline fails the job
 * at once with its code; anything else is treated as transient and retried with backoff.
 */
export class PermanentJobFailure extends Error {
  readonly code: JobErrorCode;

  constructor(code: JobErrorCode, message: string) {
    super(message);
    this.name = 'PermanentJobFailure';
    this.code = code;
  }
}

/**
 * watermark-core reports bad input with typed errors carrying a stable `code`; those that match
 * a job error code are permanent by nature.
 */
export function asPermanentFailure(error: unknown): PermanentJobFailure | null {
  if (error instanceof PermanentJobFailure) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (
    typeof code === 'string' &&
    Object.hasOwn(JOB_ERROR_CODES, code) &&
    code !== 'internal_error'
  ) {
    return new PermanentJobFailure(code as JobErrorCode, (error as Error).message);
  }
  return null;
}
