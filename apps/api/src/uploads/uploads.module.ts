import { Module } from '@nestjs/common';
import { QuotasModule } from '../quotas/quotas.module.ts';
import { StorageController } from './storage.controller.ts';
import { UploadReceiver } from './upload-receiver.service.ts';
import { UploadsController } from './uploads.controller.ts';
import { UploadsService } from './uploads.service.ts';

@Module({
  imports: [QuotasModule],
  controllers: [UploadsController, StorageController],
  providers: [UploadsService, UploadReceiver],
})
export class UploadsModule {}
