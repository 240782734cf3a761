import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.ts';
import { KeyRequestMail } from './key-request-mail.ts';
import { KeyRequestSecrets } from './key-request-secrets.ts';
import { KeyRequestsController } from './key-requests.controller.ts';
import { KeyRequestsService } from './key-requests.service.ts';

@Module({
  imports: [AuthModule],
  controllers: [KeyRequestsController],
  providers: [KeyRequestsService, KeyRequestMail, KeyRequestSecrets],
  exports: [KeyRequestMail, KeyRequestSecrets],
})
export class KeyRequestsModule {}
