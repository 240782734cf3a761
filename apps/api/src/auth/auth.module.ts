import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { OperatorSessions } from '../admin/operator-sessions.ts';
import { RateLimiter } from '../rate-limit/rate-limiter.service.ts';
import { AuthController } from './auth.controller.ts';
import { AuthGuard } from './auth.guard.ts';
import { Authenticator } from './authenticator.service.ts';

@Module({
  controllers: [AuthController],
  providers: [
    Authenticator,
    RateLimiter,
    OperatorSessions,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [RateLimiter, OperatorSessions],
})
export class AuthModule {}
