import { PIXELS_BUSY } from '@hallmark/runtime/pixels';
import { problemTypes } from '@hallmark/schemas';
import { ProblemException } from '../problem/problem.exception.ts';

// A verification answered in the request shares its API process's pixel threads with every other
// one: when they are all taken and enough wait, or one runs past its time, the caller is told to
// come back (503 with Retry-After) rather than kept waiting or answered 500.

const RETRY_AFTER_SECONDS = 2;

/** The problem for a verification the process cannot take now, or could not finish in time. */
export function inRequestProblem(error: unknown): ProblemException | null {
  const busy = (error as { code?: unknown } | null)?.code === PIXELS_BUSY;
  const late = error instanceof DOMException && error.name === 'TimeoutError';
  if (!busy && !late) return null;
  return new ProblemException(
    problemTypes.serviceUnavailable,
    busy
      ? 'Every verification place of this server is taken; retry shortly, or upload the image and use POST /verify.'
      : 'The verification did not finish in its time; upload the image and use POST /verify.',
    undefined,
    { 'retry-after': String(RETRY_AFTER_SECONDS) },
  );
}
