/**
 * How long a test waits for something that should happen: a bound for a hang, sized for a machine
 * running two whole suites at once on two cores, never a speed check. Tests poll for a condition
 * within it instead of sleeping a guessed time.
 */
export const HANG_MS = 120_000;

export interface WaitOptions {
  /** Default HANG_MS. */
  readonly timeoutMs?: number;
  /** Pause between checks; default 50 ms. */
  readonly intervalMs?: number;
}

/** Resolves once `check` holds; rejects naming `what` when it has not within the timeout. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  { timeoutMs = HANG_MS, intervalMs = 50 }: WaitOptions = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
