import { Module } from '@nestjs/common';
import { Quotas } from './quotas.service.ts';

@Module({ providers: [Quotas], exports: [Quotas] })
export class QuotasModule {}
