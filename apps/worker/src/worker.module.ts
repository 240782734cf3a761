import { availableParallelism } from 'node:os';
import { type HallmarkConfig, type Logger } from '@hallmark/config';
import { CoreModule } from '@hallmark/runtime';
import { PixelPool, pixelPoolLayout } from '@hallmark/runtime/pixels';
import { type DynamicModule, Module } from '@nestjs/common';
import { ActivityRollup } from './activity/activity-rollup.ts';
import { HealthServer } from './health/health-server.ts';
import { JOB_HANDLERS, JobConsumers, type JobHandler } from './jobs/job-consumer.ts';
import { RetentionSweeper } from './lifecycle/retention-sweeper.ts';
import { WorkerMetrics } from './metrics/worker-metrics.ts';
import { Reconciler } from './reconciler/reconciler.service.ts';
import { IpfsRecords } from './records/ipfs-records.ts';
import { NftMinter } from './records/nft-minter.ts';
import { NftTransfers } from './records/nft-transfers.ts';
import { techniquesProvider } from './techniques/techniques.provider.ts';
import { VerificationHandler } from './verify/verification-handler.ts';
import { VerificationRunner } from './verify/verification-runner.ts';
import { WatermarkHandler } from './watermark/watermark-handler.ts';
import { WatermarkPipeline } from './watermark/watermark-pipeline.ts';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher.ts';

@Module({})
export class WorkerModule {
  static forRoot(config: HallmarkConfig, logger: Logger): DynamicModule {
    return {
      module: WorkerModule,
      imports: [CoreModule.forRoot(config, logger)],
      providers: [
        HealthServer,
        WorkerMetrics,
        {
          provide: PixelPool,
          // A thread per image up to one per core (PIXEL_THREADS overrides): see pixelPoolLayout.
          useFactory: () =>
            new PixelPool(
              pixelPoolLayout(
                config.WORKER_CONCURRENCY,
                availableParallelism(),
                config.PIXEL_THREADS,
              ),
              logger,
            ),
        },
        IpfsRecords,
        NftMinter,
        NftTransfers,
        techniquesProvider,
        WatermarkPipeline,
        WatermarkHandler,
        Reconciler,
        RetentionSweeper,
        VerificationRunner,
        VerificationHandler,
        {
          // Every job kind's handler: JobConsumers runs one consumer per kind with them.
          provide: JOB_HANDLERS,
          useFactory: (...handlers: JobHandler[]) => handlers,
          inject: [WatermarkHandler, VerificationHandler],
        },
        JobConsumers,
        WebhookDispatcher,
        ActivityRollup,
      ],
    };
  }
}
