import { Module } from '@nestjs/common';
import { RecordsModule } from '../records/records.module.ts';
import { InRequestVerifier } from './in-request-verifier.ts';
import { ManifestsController } from './manifests.controller.ts';
import { ManifestsService } from './manifests.service.ts';
import { UnkeyedVerifications } from './public-verifications.service.ts';
import { PublicVerifyController } from './public-verify.controller.ts';
import { ReportController } from './report.controller.ts';
import { ReportService } from './report.service.ts';
import { reportKeyProvider } from './report-key.provider.ts';
import { SoftBindingController } from './soft-binding.controller.ts';
import { SoftBindingService } from './soft-binding.service.ts';
import { VerificationViews } from './verification-views.ts';
import { VerifyController } from './verify.controller.ts';
import { VerifyService } from './verify.service.ts';
import { verifyPixelsProvider } from './verify-pixels.provider.ts';

@Module({
  imports: [RecordsModule],
  controllers: [
    VerifyController,
    ManifestsController,
    SoftBindingController,
    ReportController,
    PublicVerifyController,
  ],
  providers: [
    VerifyService,
    SoftBindingService,
    ManifestsService,
    VerificationViews,
    ReportService,
    reportKeyProvider,
    verifyPixelsProvider,
    UnkeyedVerifications,
    InRequestVerifier,
  ],
  exports: [UnkeyedVerifications, VerificationViews, ReportService],
})
export class VerifyModule {}
