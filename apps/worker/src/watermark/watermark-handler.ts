import { type HallmarkConfig } from '@hallmark/config';
import { CONFIG } from '@hallmark/runtime';
import { Inject, Injectable } from '@nestjs/common';
import type { JobDelivery, JobHandler } from '../jobs/job-consumer.ts';
import { countRun } from '../metrics/job-runs.ts';
import { MAX_CRASHES, type PipelineOutcome, WatermarkPipeline } from './watermark-pipeline.ts';

/**
 * Runs the watermark queue's entries through the pipeline.
 *
 * Failures (decided by the pipeline, under the job's lease): a permanent one (bad image,
 * unavailable technique) fails the job row at once; any other is retried with exponential
 * backoff, and fails the row after the last attempt, with the error's own code when it has one
 * (`rpc_unreachable`, ...) and `internal_error` otherwise. The row counts attempts and crashes
 * across queue entries and re-queues, so nothing is retried forever.
 */
@Injectable()
export class WatermarkHandler implements JobHandler {
  readonly kind = 'watermark';
  // An entry whose worker died is delivered again until the job's own crash budget (kept in its
  // row, across re-queues) fails it with worker_crashed.
  readonly maxStalledCount = MAX_CRASHES + 1;

  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    private readonly pipeline: WatermarkPipeline,
  ) {}

  async handle({ requestId, lastAttempt }: JobDelivery): Promise<string> {
    const deadline = AbortSignal.timeout(this.config.JOB_TIMEOUT_MS);
    const startedAt = performance.now();
    let result: PipelineOutcome;
    try {
      result = await this.pipeline.run(requestId, { lastQueueAttempt: lastAttempt, deadline });
    } catch (error) {
      countRun('watermark', startedAt, 'retried');
      throw error;
    }
    if (result.outcome !== 'busy') {
      countRun(
        'watermark',
        startedAt,
        result.outcome,
        result.outcome === 'failed' ? result.code : undefined,
      );
    } else {
      // Another run works on the job (a second queue entry for it): look again after a backoff;
      // on the last delivery leave it to that run (the reconciler re-queues it if that run dies).
      if (!lastAttempt) {
        throw new Error(
          `job ${requestId} is held by another run until ${result.until.toISOString()}`,
        );
      }
      return 'skipped';
    }
    return result.outcome;
  }
}
