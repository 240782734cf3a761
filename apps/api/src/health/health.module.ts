import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.ts';
import { ReadinessService } from './readiness.service.ts';

@Module({
  controllers: [HealthController],
  providers: [ReadinessService],
  exports: [ReadinessService],
})
export class HealthModule {}
