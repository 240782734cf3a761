import { Global, Module } from '@nestjs/common';
import { DatabaseChanges } from './database-changes.service.ts';

/** One change feed per process, for every cache that needs it. */
@Global()
@Module({ providers: [DatabaseChanges], exports: [DatabaseChanges] })
export class ChangesModule {}
