import type { HallmarkConfig, Logger } from '@hallmark/platform';
import { CoreModule } from '@hallmark/platform';
import { QUEUES } from '@hallmark/schemas';
import { BullModule } from '@nestjs/bullmq';
import { type DynamicModule, Module } from '@nestjs/common';
import { WatermarkProcessor } from './watermark/watermark.processor.ts';

@Module({})
export class WorkerModule {
  static forRoot(config: HallmarkConfig, logger: Logger): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        CoreModule.forRoot(config, logger),
        BullModule.forRoot({
          connection: { url: config.REDIS_URL },
          prefix: config.REDIS_PREFIX,
        }),
        BullModule.registerQueue({ name: QUEUES.watermark }),
      ],
      providers: [WatermarkProcessor],
    };
  }
}
