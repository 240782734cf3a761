import { QUEUES } from '@hallmark/schemas';
import { type JobsOptions, Queue } from 'bullmq';
import type { HallmarkConfig } from '../config/index.ts';

export type WatermarkQueue = Queue<{ requestId: string }>;
/** The verify queue: entries name a verification row. */
export type VerifyQueue = Queue<{ requestId: string }>;

/** The queue connection as producers (api, reconciler) use it: fail fast while Redis is away. */
export function createWatermarkQueue(
  config: Pick<HallmarkConfig, 'REDIS_URL' | 'REDIS_PREFIX'>,
): WatermarkQueue {
  return producerQueue(QUEUES.watermark, config);
}

export function createVerifyQueue(
  config: Pick<HallmarkConfig, 'REDIS_URL' | 'REDIS_PREFIX'>,
): VerifyQueue {
  return producerQueue(QUEUES.verify, config);
}

function producerQueue(
  name: string,
  config: Pick<HallmarkConfig, 'REDIS_URL' | 'REDIS_PREFIX'>,
): Queue<{ requestId: string }> {
  return new Queue(name, {
    connection: { url: config.REDIS_URL, enableOfflineQueue: false, maxRetriesPerRequest: 1 },
    prefix: config.REDIS_PREFIX,
  });
}

/**
 * Queues "look at this job row". The entry's id is the requestId, so queueing the same job twice
 * (a retried request, the reconciler) while it waits or runs adds nothing; finished entries are
 * removed so that the reconciler can queue a job again if its row is still unfinished.
 */
export async function enqueueWatermarkJob(
  queue: WatermarkQueue,
  requestId: string,
  config: Pick<HallmarkConfig, 'JOB_ATTEMPTS'>,
): Promise<void> {
  const options: JobsOptions = {
    jobId: requestId,
    attempts: config.JOB_ATTEMPTS,
    backoff: { type: 'exponential', delay: 1_000 },
    removeOnComplete: true,
    removeOnFail: true,
  };
  await queue.add(QUEUES.watermark, { requestId }, options);
}

/** Queues "look at this verification row", on the same terms as a watermark job. */
export async function enqueueVerification(
  queue: VerifyQueue,
  requestId: string,
  config: Pick<HallmarkConfig, 'JOB_ATTEMPTS'>,
): Promise<void> {
  await queue.add(
    QUEUES.verify,
    { requestId },
    {
      jobId: requestId,
      attempts: config.JOB_ATTEMPTS,
      backoff: { type: 'exponential', delay: 1_000 },
      removeOnComplete: true,
      removeOnFail: true,
    },
  );
}
