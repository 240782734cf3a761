import { problemTypes } from '@hallmark/schemas';
import { ProblemException } from '../problem/problem.exception.ts';

/**
 * A replay must carry the body its Idempotency-Key was first used with (requestHash); another
 * body with the same key is refused rather than answered with the first request's result.
 */
export function assertSameRequest(earlierHash: string | null, hash: string | null): void {
  if (earlierHash !== hash) {
    throw new ProblemException(
      problemTypes.idempotencyKeyReused,
      'This Idempotency-Key was used with a different request body; use a new key for a new request.',
    );
  }
}
