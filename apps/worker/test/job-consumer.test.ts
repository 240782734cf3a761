import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { JobQueues } from '@hallmark/runtime';
import { createTestEnv } from '@hallmark/runtime/testing';
import type { Job, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertOneHandlerPerKind,
  createJobConsumer,
  type JobDelivery,
  type JobHandler,
} from '../src/jobs/job-consumer.ts';

function handlerOf(
  kind: JobHandler['kind'],
  handle: JobHandler['handle'] = async () => 'done',
): JobHandler {
  return { kind, handle };
}

describe('the job handlers', () => {
  it('start with exactly one handler per job kind', () => {
    expect(() =>
      assertOneHandlerPerKind([handlerOf('watermark'), handlerOf('verify')]),
    ).not.toThrow();
  });

  it('refuse to start when a kind has no handler, naming it', () => {
    expect(() => assertOneHandlerPerKind([handlerOf('watermark')])).toThrow(
      "The worker needs exactly one handler for the 'verify' job kind; it has 0.",
    );
  });

  it('refuse to start when a kind has two handlers, naming it', () => {
    expect(() =>
      assertOneHandlerPerKind([handlerOf('watermark'), handlerOf('verify'), handlerOf('verify')]),
    ).toThrow("The worker needs exactly one handler for the 'verify' job kind; it has 2.");
  });

  it('refuse a handler of a kind the catalogue does not have', () => {
    const stray = { kind: 'resize', handle: async () => 'done' } as unknown as JobHandler;
    expect(() =>
      assertOneHandlerPerKind([handlerOf('watermark'), handlerOf('verify'), stray]),
    ).toThrow("A handler is registered for 'resize', which is no job kind.");
  });
});

describe('a job consumer', () => {
  let testEnv: Awaited<ReturnType<typeof createTestEnv>>;
  let queues: JobQueues;
  let consumer: Worker | undefined;
  const deliveries: JobDelivery[] = [];

  beforeAll(async () => {
    // One attempt: the first delivery is the last.
    testEnv = await createTestEnv('job-consumer-test', { JOB_ATTEMPTS: '1' });
    queues = new JobQueues(testEnv.config, testEnv.logger);
    const handler = handlerOf('verify', async (delivery: JobDelivery) => {
      deliveries.push(delivery);
      return 'looked';
    });
    consumer = createJobConsumer(handler, {
      config: testEnv.config,
      logger: testEnv.logger,
      pixelThreads: 1,
    });
  });

  afterAll(async () => {
    await consumer?.close();
    await queues?.close();
    await testEnv?.dispose();
  });

  it('hands an enqueued row to its handler, saying when it is the last attempt', async () => {
    const requestId = randomUUID();
    const completed = once(consumer as Worker, 'completed');
    expect(await queues.enqueue('verify', requestId)).toBe(true);
    const [job, result] = (await completed) as [Job, string];
    expect(job.id).toBe(requestId);
    expect(result).toBe('looked');
    expect(deliveries).toEqual([{ requestId, lastAttempt: true }]);
  });

  it('sizes a consumer by its kind and takes stalled-entry settings from its handler', async () => {
    const pixelThreads = 3;
    const watermark = createJobConsumer(
      { ...handlerOf('watermark'), maxStalledCount: 3 },
      { config: testEnv.config, logger: testEnv.logger, pixelThreads },
    );
    try {
      expect(watermark.opts).toMatchObject({
        concurrency: testEnv.config.WORKER_CONCURRENCY + pixelThreads,
        lockDuration: testEnv.config.JOB_LOCK_MS,
        stalledInterval: testEnv.config.JOB_LOCK_MS,
        maxStalledCount: 3,
        prefix: testEnv.config.REDIS_PREFIX,
      });
    } finally {
      await watermark.close();
    }
    // Without settings of its own a handler keeps BullMQ's stalled-entry defaults.
    expect(consumer?.opts).toMatchObject({
      concurrency: testEnv.config.WORKER_CONCURRENCY,
      stalledInterval: 30_000,
      maxStalledCount: 1,
    });
  });

  it('fails a malformed entry without retrying it or calling the handler', async () => {
    deliveries.length = 0;
    const failed = once(consumer as Worker, 'failed');
    await queues.queue('verify').add('verify', { requestId: 'not-a-uuid' }, { attempts: 3 });
    const [job, error] = (await failed) as [Job, Error];
    expect(error.name).toBe('UnrecoverableError');
    expect(error.message).toContain('malformed verify queue entry');
    expect(job.attemptsMade).toBe(1);
    expect(deliveries).toEqual([]);
  });
});
