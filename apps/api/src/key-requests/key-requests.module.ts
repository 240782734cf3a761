import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.ts';
import { KeyRequestMail } from './key-request-mail.ts';
import { KeyRequestsController } from './key-requests.controller.ts';
import { KeyRequestsService } from './key-requests.service.ts';

@Module({
  imports: [AuthModule],
  controllers: [KeyRequestsController],
  providers: [KeyRequestsService, KeyRequestMail],
  exports: [KeyRequestMail],
})
export class KeyRequestsModule {}
