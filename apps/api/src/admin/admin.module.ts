import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.ts';
import { HealthModule } from '../health/health.module.ts';
import { KeyRequestsModule } from '../key-requests/key-requests.module.ts';
import { RecordsModule } from '../records/records.module.ts';
import { VerifyModule } from '../verify/verify.module.ts';
import { WatermarkModule } from '../watermark/watermark.module.ts';
import { AdminActivityController } from './admin-activity.controller.ts';
import { AdminActivityService } from './admin-activity.service.ts';
import { AdminAuditController } from './admin-audit.controller.ts';
import { AdminAuditService } from './admin-audit.service.ts';
import { AdminJobsController } from './admin-jobs.controller.ts';
import { AdminJobsService } from './admin-jobs.service.ts';
import { AdminKeyRequestsController } from './admin-key-requests.controller.ts';
import { AdminKeyRequestsService } from './admin-key-requests.service.ts';
import { AdminKeyUsageService } from './admin-key-usage.service.ts';
import { AdminKeysController } from './admin-keys.controller.ts';
import { AdminKeysService } from './admin-keys.service.ts';
import { AdminOperatorsController } from './admin-operators.controller.ts';
import { AdminOperatorsService } from './admin-operators.service.ts';
import { AdminOverviewController } from './admin-overview.controller.ts';
import { AdminOverviewService } from './admin-overview.service.ts';
import { AdminRecordsController } from './admin-records.controller.ts';
import { AdminRecordsService } from './admin-records.service.ts';
import { AdminSessionController } from './admin-session.controller.ts';
import { AdminVerificationsController } from './admin-verifications.controller.ts';
import { AdminVerificationsService } from './admin-verifications.service.ts';
import { AdminWebhooksController } from './admin-webhooks.controller.ts';
import { AdminWebhooksService } from './admin-webhooks.service.ts';

@Module({
  imports: [
    AuthModule,
    KeyRequestsModule,
    HealthModule,
    WatermarkModule,
    RecordsModule,
    VerifyModule,
  ],
  controllers: [
    AdminSessionController,
    AdminKeyRequestsController,
    AdminKeysController,
    AdminJobsController,
    AdminOverviewController,
    AdminRecordsController,
    AdminWebhooksController,
    AdminAuditController,
    AdminOperatorsController,
    AdminVerificationsController,
    AdminActivityController,
  ],
  providers: [
    AdminKeyRequestsService,
    AdminKeysService,
    AdminRecordsService,
    AdminWebhooksService,
    AdminAuditService,
    AdminOperatorsService,
    AdminOverviewService,
    AdminJobsService,
    AdminVerificationsService,
    AdminActivityService,
    AdminKeyUsageService,
  ],
})
export class AdminModule {}
