import type { AdminJob, AdminJobDetail, AdminJobPage } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CurrentOperator, type Operator } from '../auth/client.ts';
import { Input, Operation } from '../routing/operation.decorator.ts';
import type { InputOf } from '../routing/operation-input.ts';
import { AdminJobsService } from './admin-jobs.service.ts';
import { AdminRoute } from './admin-route.decorator.ts';
import { byOperator } from './audit-actor.ts';

/** Every key's jobs, for operators: filtered, paged, with a before/after preview; admins retry. */
@AdminRoute()
@Controller()
export class AdminJobsController {
  constructor(private readonly jobs: AdminJobsService) {}

  /** Newest first. */
  @Operation(ROUTES.listJobs)
  list(@Input() { query }: InputOf<'listJobs'>): Promise<AdminJobPage> {
    return this.jobs.list(query);
  }

  @Operation(ROUTES.getJob)
  detail(@Input() { params }: InputOf<'getJob'>): Promise<AdminJobDetail> {
    return this.jobs.detail(params.requestId);
  }

  /** A failed job runs again from the start of its budget (its stored output, if any, is kept). */
  @Operation(ROUTES.retryJob)
  retry(
    @Input() { params }: InputOf<'retryJob'>,
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
  ): Promise<AdminJob> {
    return this.jobs.retry(params.requestId, byOperator(operator, request));
  }
}
