import { Module } from '@nestjs/common';
import { WatermarkQueueProvider } from '../queue/watermark-queue.provider.ts';
import { QuotasModule } from '../quotas/quotas.module.ts';
import { RecordsModule } from '../records/records.module.ts';
import { WatermarkController } from './watermark.controller.ts';
import { WatermarkService } from './watermark.service.ts';

@Module({
  imports: [RecordsModule, QuotasModule],
  controllers: [WatermarkController],
  providers: [WatermarkService, WatermarkQueueProvider],
  exports: [WatermarkQueueProvider],
})
export class WatermarkModule {}
