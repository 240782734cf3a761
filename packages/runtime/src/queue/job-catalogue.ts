import type { HallmarkConfig } from '@hallmark/config';
import {
  QUEUES,
  type QueueName,
  type TraceContext,
  verifyJobPayloadSchema,
  watermarkJobPayloadSchema,
} from '@hallmark/schemas';
import type { JobsOptions } from 'bullmq';
import type { z } from 'zod';

/** What every queue entry carries: "look at this row". The row holds the request and state. */
export interface JobPayload {
  readonly requestId: string;
  /** The queuing request's trace, when the deployment traces. */
  readonly trace?: TraceContext | undefined;
}

/** What a worker process can run at once, for a kind to size its consumer by. */
export interface WorkerCapacity {
  /** WORKER_CONCURRENCY: images marked or examined at once. */
  readonly workerConcurrency: number;
  /** The process's pixel threads (see pixelPoolLayout). */
  readonly pixelThreads: number;
}

export interface JobKindSpec {
  readonly queue: QueueName;
  /** Checked by the consumer on every entry: a malformed one is failed, never retried. */
  readonly payload: z.ZodType<JobPayload>;
  /** How many entries of the kind one worker process runs at once. */
  readonly concurrency: (capacity: WorkerCapacity) => number;
}

/**
 * Every kind of queued job: the API and the reconciler produce them with `JobQueues.enqueue`,
 * the worker consumes each with the one handler registered for it. Retries are the same for
 * every kind (see `retryPolicy`).
 */
export const JOB_CATALOGUE = {
  watermark: {
    queue: QUEUES.watermark,
    payload: watermarkJobPayloadSchema,
    // WORKER_CONCURRENCY images are marked at once, and each pixel thread has one more job in
    // hand, being read from the database and storage (or written back) meanwhile; without it the
    // threads would idle for those few milliseconds between any two jobs.
    concurrency: ({ workerConcurrency, pixelThreads }) => workerConcurrency + pixelThreads,
  },
  verify: {
    queue: QUEUES.verify,
    payload: verifyJobPayloadSchema,
    concurrency: ({ workerConcurrency }) => workerConcurrency,
  },
} as const satisfies Record<string, JobKindSpec>;

export type JobKind = keyof typeof JOB_CATALOGUE;

export const JOB_KINDS = Object.keys(JOB_CATALOGUE) as readonly JobKind[];

/**
 * How an entry is queued. Its id is the row's id, so queueing the same row twice (a retried
 * request, the reconciler) while it waits or runs adds nothing; finished entries are removed so
 * that the reconciler can queue a row again while it is unfinished. JOB_ATTEMPTS deliveries with
 * exponential backoff; the rows count their own attempts too, so nothing is retried forever.
 */
export function retryPolicy(
  requestId: string,
  config: Pick<HallmarkConfig, 'JOB_ATTEMPTS'>,
): JobsOptions {
  return {
    jobId: requestId,
    attempts: config.JOB_ATTEMPTS,
    backoff: { type: 'exponential', delay: 1_000 },
    removeOnComplete: true,
    removeOnFail: true,
  };
}
