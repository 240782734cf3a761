import type { JobKind } from '@hallmark/runtime';
import { jobRunDuration, jobsFinished } from '@hallmark/runtime/metrics';

/** How a run ended: `retried` is a failure that gave the job back for another attempt. */
export type RunOutcome = 'success' | 'failed' | 'retried' | 'skipped';

/** Counts one run of a job and times it, from `startedAt` (`performance.now()`). */
export function countRun(
  kind: JobKind,
  startedAt: number,
  outcome: RunOutcome,
  code: string | undefined = undefined,
): void {
  jobsFinished.inc({ kind, outcome, code: code ?? '' });
  jobRunDuration.observe({ kind, outcome }, (performance.now() - startedAt) / 1000);
}
