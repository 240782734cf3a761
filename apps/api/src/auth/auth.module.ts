import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { RateLimiter } from '../rate-limit/rate-limiter.service.ts';
import { AuthController } from './auth.controller.ts';
import { AuthGuard } from './auth.guard.ts';
import { Authenticator } from './authenticator.service.ts';

@Module({
  controllers: [AuthController],
  providers: [Authenticator, RateLimiter, { provide: APP_GUARD, useClass: AuthGuard }],
  exports: [RateLimiter],
})
export class AuthModule {}
