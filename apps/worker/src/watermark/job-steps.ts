import { jobStepDuration } from '@hallmark/runtime/metrics';
import { traced } from '@hallmark/runtime/tracing';

/** One finished step of a job, kept in the row's `steps` column for operators and benchmarks. */
export interface StepTiming {
  readonly name: string;
  readonly ms: number;
  readonly attempt: number;
}

/** Runs a step and records how long it took. */
export async function timed<T>(
  steps: StepTiming[],
  name: string,
  attempt: number,
  work: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const result = await traced(`step ${name}`, { 'hallmark.step': name }, work);
  const ms = performance.now() - started;
  steps.push({ name, ms: Math.round(ms * 10) / 10, attempt });
  jobStepDuration.observe({ step: name }, ms / 1000);
  return result;
}
