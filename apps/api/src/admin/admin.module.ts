import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.ts';
import { KeyRequestsModule } from '../key-requests/key-requests.module.ts';
import { AdminAuditController } from './admin-audit.controller.ts';
import { AdminKeyRequestsController } from './admin-key-requests.controller.ts';
import { AdminKeysController } from './admin-keys.controller.ts';
import { AdminSessionController } from './admin-session.controller.ts';

@Module({
  imports: [AuthModule, KeyRequestsModule],
  controllers: [
    AdminSessionController,
    AdminKeyRequestsController,
    AdminKeysController,
    AdminAuditController,
  ],
})
export class AdminModule {}
