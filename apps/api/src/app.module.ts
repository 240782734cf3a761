import type { HallmarkConfig, Logger } from '@hallmark/config';
import { CoreModule } from '@hallmark/runtime';
import { type DynamicModule, Module } from '@nestjs/common';
import { AdminModule } from './admin/admin.module.ts';
import { AuthModule } from './auth/auth.module.ts';
import { ChangesModule } from './changes/changes.module.ts';
import { DocsModule } from './docs/docs.module.ts';
import { HealthModule } from './health/health.module.ts';
import { KeyRequestsModule } from './key-requests/key-requests.module.ts';
import { ProblemModule } from './problem/problem.module.ts';
import { JobQueueModule } from './queue/job-queue.module.ts';
import { RecordsModule } from './records/records.module.ts';
import { RedisModule } from './redis/redis.module.ts';
import { UploadsModule } from './uploads/uploads.module.ts';
import { VerifyModule } from './verify/verify.module.ts';
import { WatermarkModule } from './watermark/watermark.module.ts';
import { WebhooksModule } from './webhooks/webhooks.module.ts';

@Module({})
export class AppModule {
  static forRoot(config: HallmarkConfig, logger: Logger): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(config, logger),
        RedisModule,
        JobQueueModule,
        ChangesModule,
        ProblemModule,
        HealthModule,
        DocsModule,
        AuthModule,
        UploadsModule,
        RecordsModule,
        WatermarkModule,
        VerifyModule,
        WebhooksModule,
        KeyRequestsModule,
        AdminModule,
      ],
    };
  }
}
