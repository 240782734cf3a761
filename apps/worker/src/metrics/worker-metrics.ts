import type { Server } from 'node:http';
import { type HallmarkConfig, type Logger } from '@hallmark/config';
import { webhookBacklog } from '@hallmark/db';
import {
  CONFIG,
  JOB_CATALOGUE,
  JOB_KINDS,
  JobQueues,
  LOGGER,
  PrismaService,
} from '@hallmark/runtime';
import {
  operationalGauges,
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
import { NftMinter } from '../records/nft-minter.ts';
import { TECHNIQUES, type Techniques } from '../techniques/techniques.ts';

/**
 * `GET /metrics` on WORKER_METRICS_PORT, when set: this worker's figures (jobs, steps, webhook
 * attempts, mints, bytes stored), and read at each scrape: the queues' depth and oldest waiting
 * age (Redis), the webhook backlog (PostgreSQL), the signing certificate's expiry and the minter
 * wallet's balance (the chain).
 */
@Injectable()
export class WorkerMetrics implements OnApplicationBootstrap, OnApplicationShutdown {
  #server: Server | undefined;
  #queues: JobQueues | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(TECHNIQUES) private readonly techniques: Techniques,
    private readonly nfts: NftMinter,
    private readonly prisma: PrismaService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.WORKER_METRICS_PORT;
    if (port === undefined) return;
    const queues = new JobQueues(this.config, this.logger);
    this.#queues = queues;
    // Figures that cannot be read now are left out of the answer; the rest is still served.
    const orNull = async <T>(what: string, read: () => Promise<T>): Promise<T | null> => {
      try {
        return await read();
      } catch (error) {
        this.logger.warn({ err: (error as Error).message }, `metrics: ${what} not read`);
        return null;
      }
    };
    queueGauges(async () => (await orNull('queues', () => sampleQueues(queues))) ?? []);
    operationalGauges({
      signingCertificateNotAfter: () => this.techniques.c2pa?.notAfter() ?? null,
      minterBalanceEther: async () => {
        const registry = this.nfts.registry;
        if (registry === null || registry.minterAddress === null) return null;
        const wei = await orNull('minter balance', () => registry.minterBalance());
        return wei === null ? null : Number(wei) / 1e18;
      },
      webhookBacklog: () => orNull('webhook backlog', () => webhookBacklog(this.prisma.sql)),
    });
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
