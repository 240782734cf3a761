import type { HallmarkConfig, Logger } from '@hallmark/config';
import { Queue } from 'bullmq';
import {
  bullConnection,
  type RedisConnectionConfig,
  redisConnection,
  redisKeyPrefix,
} from '../redis-connection.ts';
import { activeTraceContext, SpanKind, traced } from '../tracing/spans.ts';
import {
  JOB_CATALOGUE,
  JOB_KINDS,
  type JobKind,
  type JobPayload,
  retryPolicy,
} from './job-catalogue.ts';

export type JobQueueConfig = RedisConnectionConfig &
  Pick<HallmarkConfig, 'REDIS_PREFIX' | 'JOB_ATTEMPTS'>;

/**
 * The producers' connections to the job queues, one per kind of the catalogue: they fail fast
 * while Redis is away instead of holding the request that queues.
 *
 * A failed enqueue: the row is the truth. Every producer writes its row (a new job or
 * verification, a job an operator retries) before it queues the row, and the reconciler queues
 * every unfinished row that has no queue entry. So no producer fails, undoes or retries anything
 * because Redis cannot take an entry now: `enqueue` logs that and leaves the row to the
 * reconciler.
 */
export class JobQueues {
  readonly #queues: Readonly<Record<JobKind, Queue<JobPayload>>>;
  readonly #config: JobQueueConfig;
  readonly #logger: Logger;

  constructor(config: JobQueueConfig, logger: Logger) {
    this.#config = config;
    this.#logger = logger;
    this.#queues = Object.fromEntries(JOB_KINDS.map((kind) => [kind, this.#open(kind)])) as Record<
      JobKind,
      Queue<JobPayload>
    >;
  }

  /**
   * Queues "look at row `requestId`" on the kind's queue. Never throws: false when the entry was
   * not queued, which is logged and left to the reconciler (see above).
   */
  async enqueue(kind: JobKind, requestId: string): Promise<boolean> {
    const queue = JOB_CATALOGUE[kind].queue;
    try {
      await traced(
        `${queue} send`,
        { 'messaging.system': 'bullmq', 'messaging.destination.name': queue },
        async () => {
          // The entry carries this span's context: the worker's run continues the trace.
          const trace = activeTraceContext();
          await this.#queues[kind].add(
            queue,
            trace === undefined ? { requestId } : { requestId, trace },
            retryPolicy(requestId, this.#config),
          );
        },
        SpanKind.PRODUCER,
      );
      return true;
    } catch (error) {
      this.#logger.warn(
        { kind, requestId, err: (error as Error).message },
        'queueing deferred to the reconciler',
      );
      return false;
    }
  }

  /** The kind's queue, to look at its entries (counts, one entry's state). */
  queue(kind: JobKind): Queue<JobPayload> {
    return this.#queues[kind];
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.#queues).map((queue) => queue.close()));
  }

  #open(kind: JobKind): Queue<JobPayload> {
    const queue = new Queue<JobPayload>(JOB_CATALOGUE[kind].queue, {
      connection: bullConnection(
        redisConnection(this.#config, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }),
      ),
      prefix: redisKeyPrefix(this.#config),
    });
    // Without a listener a lost Redis would crash the process; what was not queued is deferred.
    queue.on('error', (error) =>
      this.#logger.debug({ kind, err: error.message }, 'queue connection error'),
    );
    return queue;
  }
}
