import { Global, Module } from '@nestjs/common';
import { JobQueueProvider } from './job-queue.provider.ts';

/** One set of queue connections for every producer of the process (jobs, verify, admin). */
@Global()
@Module({ providers: [JobQueueProvider], exports: [JobQueueProvider] })
export class JobQueueModule {}
