/**
 * `work`, or a rejection with the signal's reason as soon as it aborts, whatever `work` is still
 * doing (it cannot be stopped from here: `onAbort` may clean up after it). A later settlement of
 * `work` is handled, never an unhandled rejection.
 */
export function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal,
  onAbort?: () => Promise<void>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      reject(signal.reason);
      onAbort?.().catch(() => {
        // The work is abandoned either way; a failed clean-up must not outlive it.
      });
    };
    if (signal.aborted) {
      abort();
    } else {
      signal.addEventListener('abort', abort, { once: true });
    }
    work.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}
