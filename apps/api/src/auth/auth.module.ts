import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { OperatorSessions } from '../admin/operator-sessions.ts';
import { RateLimiter } from '../rate-limit/rate-limiter.service.ts';
import { ApiKeyCache } from './api-key-cache.service.ts';
import { AuthController } from './auth.controller.ts';
import { AuthGuard } from './auth.guard.ts';
import { Authenticator } from './authenticator.service.ts';

@Module({
  controllers: [AuthController],
  providers: [
    Authenticator,
    ApiKeyCache,
    RateLimiter,
    OperatorSessions,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
  exports: [RateLimiter, OperatorSessions, ApiKeyCache],
})
export class AuthModule {}
