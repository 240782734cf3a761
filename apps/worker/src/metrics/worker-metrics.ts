import type { Server } from 'node:http';
import { type HallmarkConfig, type Logger } from '@hallmark/config';
import { CONFIG, JOB_CATALOGUE, JOB_KINDS, JobQueues, LOGGER } from '@hallmark/runtime';
import {
  processMetrics,
  type QueueSample,
  queueGauges,
  startMetricsServer,
  stopMetricsServer,
} from '@hallmark/runtime/metrics';
import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';

/**
 * `GET /metrics` on WORKER_METRICS_PORT, when set: this worker's figures (jobs, steps, webhook
 * attempts, mints, bytes stored) and the queues' depth and oldest waiting age, read from Redis
 * at each scrape.
 */
@Injectable()
export class WorkerMetrics implements OnApplicationBootstrap, OnApplicationShutdown {
  #server: Server | undefined;
  #queues: JobQueues | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.WORKER_METRICS_PORT;
    if (port === undefined) return;
    const queues = new JobQueues(this.config, this.logger);
    this.#queues = queues;
    queueGauges(() => sampleQueues(queues));
    this.#server = await startMetricsServer({
      port,
      host: this.config.HOST,
      token: this.config.METRICS_TOKEN,
      source: processMetrics(),
      logger: this.logger,
    });
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.#server !== undefined) await stopMetricsServer(this.#server);
    await this.#queues?.close();
  }
}

async function sampleQueues(queues: JobQueues): Promise<QueueSample[]> {
  const now = Date.now();
  return Promise.all(
    JOB_KINDS.map(async (kind) => {
      const queue = queues.queue(kind);
      // The oldest entry sits at one end of the waiting list; both ends are read rather than
      // relying on which end BullMQ pushes to.
      const [counts, first, last] = await Promise.all([
        queue.getJobCounts('waiting', 'active', 'delayed'),
        queue.getWaiting(0, 0),
        queue.getWaiting(-1, -1),
      ]);
      const stamps = [...first, ...last].map((job) => job.timestamp);
      return {
        queue: JOB_CATALOGUE[kind].queue,
        waiting: counts.waiting ?? 0,
        active: counts.active ?? 0,
        delayed: counts.delayed ?? 0,
        oldestWaitingSeconds:
          stamps.length === 0 ? 0 : Math.max(0, now - Math.min(...stamps)) / 1000,
      };
    }),
  );
}
