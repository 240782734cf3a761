import { type HallmarkConfig, type Logger } from '@hallmark/config';
import {
  bullConnection,
  CONFIG,
  JOB_CATALOGUE,
  JOB_KINDS,
  type JobKind,
  LOGGER,
  type RedisConnectionConfig,
  redisConnection,
  redisKeyPrefix,
} from '@hallmark/runtime';
import { PixelPool } from '@hallmark/runtime/pixels';
import { inTraceOf, SpanKind, traced } from '@hallmark/runtime/tracing';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { type Job, UnrecoverableError, Worker } from 'bullmq';

/** One delivery of a queue entry, its payload checked against the catalogue's schema. */
export interface JobDelivery {
  readonly requestId: string;
  /** The queue will not deliver this entry again: a failure now must end the row. */
  readonly lastAttempt: boolean;
}

/**
 * What the worker does with the entries of one kind of the catalogue. `handle` returns what it
 * did (kept as the entry's result); throwing retries the entry with the catalogue's backoff.
 */
export interface JobHandler {
  readonly kind: JobKind;
  /**
   * Deliveries of an entry whose worker died (its lock lapsed), looked for every JOB_LOCK_MS.
   * Unset: BullMQ's own stalled-entry defaults.
   */
  readonly maxStalledCount?: number;
  handle(delivery: JobDelivery): Promise<string>;
}

/** The Nest token of the worker's handlers: a list with one handler per kind. */
export const JOB_HANDLERS = Symbol('JOB_HANDLERS');

/**
 * Throws, naming the kind, unless every kind of the catalogue has exactly one handler: a kind
 * without one would be queued and never run, and two would run each entry twice.
 */
export function assertOneHandlerPerKind(handlers: readonly JobHandler[]): void {
  for (const kind of JOB_KINDS) {
    const count = handlers.filter((handler) => handler.kind === kind).length;
    if (count !== 1) {
      throw new Error(
        `The worker needs exactly one handler for the '${kind}' job kind; it has ${count}.`,
      );
    }
  }
  const unknown = handlers.find((handler) => !JOB_KINDS.includes(handler.kind));
  if (unknown !== undefined) {
    throw new Error(`A handler is registered for '${unknown.kind}', which is no job kind.`);
  }
}

export interface ConsumerSettings {
  readonly config: RedisConnectionConfig &
    Pick<HallmarkConfig, 'REDIS_PREFIX' | 'JOB_LOCK_MS' | 'WORKER_CONCURRENCY'>;
  readonly logger: Logger;
  readonly pixelThreads: number;
}

/**
 * The BullMQ worker of one kind, built here rather than with @Processor so that concurrency and
 * lock duration come from the validated configuration. A malformed entry fails at once; the
 * handler sees only checked payloads.
 */
export function createJobConsumer(handler: JobHandler, settings: ConsumerSettings): Worker {
  const { config, logger } = settings;
  const spec = JOB_CATALOGUE[handler.kind];
  const run = async (job: Job): Promise<string> => {
    const payload = spec.payload.safeParse(job.data);
    if (!payload.success) {
      throw new UnrecoverableError(`malformed ${spec.queue} queue entry: ${payload.error.message}`);
    }
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const { requestId, trace } = payload.data;
    // In the trace of the request that queued it, when there is one.
    return inTraceOf(trace, () =>
      traced(
        `${spec.queue} process`,
        {
          'messaging.system': 'bullmq',
          'messaging.destination.name': spec.queue,
          'hallmark.request_id': requestId,
          'hallmark.attempt': job.attemptsMade + 1,
        },
        () => handler.handle({ requestId, lastAttempt }),
        SpanKind.CONSUMER,
      ),
    );
  };
  const worker = new Worker(spec.queue, run, {
    connection: bullConnection(redisConnection(config, { maxRetriesPerRequest: null })),
    prefix: redisKeyPrefix(config),
    concurrency: spec.concurrency({
      workerConcurrency: config.WORKER_CONCURRENCY,
      pixelThreads: settings.pixelThreads,
    }),
    lockDuration: config.JOB_LOCK_MS,
    ...(handler.maxStalledCount === undefined
      ? {}
      : { stalledInterval: config.JOB_LOCK_MS, maxStalledCount: handler.maxStalledCount }),
  });
  worker.on('error', throttledConnectionLog(logger, spec.queue));
  return worker;
}

/** A lost Redis shows as repeated 'error' events: one structured line per error every 10 s. */
function throttledConnectionLog(logger: Logger, queue: string): (error: Error) => void {
  let last: { message: string; at: number } | undefined;
  return (error) => {
    const now = Date.now();
    if (last !== undefined && last.message === error.message && now - last.at < 10_000) return;
    last = { message: error.message, at: now };
    logger.warn({ queue, err: error.message }, 'queue connection error; BullMQ keeps retrying');
  };
}

/**
 * The worker process's consumers, one per kind of the catalogue, each running its registered
 * handler. Start-up fails when a kind has no handler or more than one.
 */
@Injectable()
export class JobConsumers implements OnApplicationBootstrap, BeforeApplicationShutdown {
  #workers: Worker[] = [];

  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly pixels: PixelPool,
    @Inject(JOB_HANDLERS) private readonly handlers: readonly JobHandler[],
  ) {
    assertOneHandlerPerKind(handlers);
  }

  onApplicationBootstrap(): void {
    const settings = {
      config: this.config,
      logger: this.logger,
      pixelThreads: this.pixels.layout.threads,
    };
    this.#workers = this.handlers.map((handler) => createJobConsumer(handler, settings));
  }

  async beforeApplicationShutdown(): Promise<void> {
    // Takes no new entry and waits for the running ones (the process deadline bounds the wait).
    await Promise.all(this.#workers.map((worker) => worker.close()));
  }
}
