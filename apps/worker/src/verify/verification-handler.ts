import { Injectable } from '@nestjs/common';
import type { JobDelivery, JobHandler } from '../jobs/job-consumer.ts';
import { VerificationRunner } from './verification-runner.ts';

/**
 * Runs the verify queue's entries: retried with backoff on transient failures (storage,
 * database), failed at once for images the engines refuse.
 */
@Injectable()
export class VerificationHandler implements JobHandler {
  readonly kind = 'verify';

  constructor(private readonly runner: VerificationRunner) {}

  handle({ requestId, lastAttempt }: JobDelivery): Promise<string> {
    return this.runner.run(requestId, lastAttempt);
  }
}
