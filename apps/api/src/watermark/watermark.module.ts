import { Module } from '@nestjs/common';
import { QuotasModule } from '../quotas/quotas.module.ts';
import { RecordsModule } from '../records/records.module.ts';
import { JobViewCache } from './job-view-cache.service.ts';
import { WatermarkController } from './watermark.controller.ts';
import { WatermarkService } from './watermark.service.ts';
import { WatermarkBatchesController } from './watermark-batches.controller.ts';
import { WatermarkBatchesService } from './watermark-batches.service.ts';

@Module({
  imports: [RecordsModule, QuotasModule],
  // Batches first: `/watermark/batches/...` must not be taken for a job id.
  controllers: [WatermarkBatchesController, WatermarkController],
  providers: [WatermarkService, WatermarkBatchesService, JobViewCache],
  exports: [JobViewCache],
})
export class WatermarkModule {}
