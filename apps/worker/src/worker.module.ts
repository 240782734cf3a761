import { availableParallelism } from 'node:os';
import { CoreModule, type HallmarkConfig, type Logger } from '@hallmark/platform';
import { PixelPool, pixelPoolLayout } from '@hallmark/platform/pixels';
import { QUEUES } from '@hallmark/schemas';
import { BullModule } from '@nestjs/bullmq';
import { type DynamicModule, Module } from '@nestjs/common';
import { HealthServer } from './health/health-server.ts';
import { RetentionSweeper } from './lifecycle/retention-sweeper.ts';
import { Reconciler } from './reconciler/reconciler.service.ts';
import { IpfsRecords } from './records/ipfs-records.ts';
import { NftMinter } from './records/nft-minter.ts';
import { NftTransfers } from './records/nft-transfers.ts';
import { techniquesProvider } from './techniques/techniques.provider.ts';
import { VerificationRunner } from './verify/verification-runner.ts';
import { VerificationWorker } from './verify/verification-worker.ts';
import { WatermarkPipeline } from './watermark/watermark-pipeline.ts';
import { WatermarkWorker } from './watermark/watermark-worker.ts';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher.ts';

@Module({})
export class WorkerModule {
  static forRoot(config: HallmarkConfig, logger: Logger): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        CoreModule.forRoot(config, logger),
        BullModule.forRoot({ connection: { url: config.REDIS_URL }, prefix: config.REDIS_PREFIX }),
        BullModule.registerQueue({ name: QUEUES.watermark }, { name: QUEUES.verify }),
      ],
      providers: [
        HealthServer,
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
        WatermarkWorker,
        Reconciler,
        RetentionSweeper,
        VerificationRunner,
        VerificationWorker,
        WebhookDispatcher,
      ],
    };
  }
}
