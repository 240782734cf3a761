import type { AdminKeyRequest, AdminKeyRequestPage } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CurrentOperator, type Operator } from '../auth/client.ts';
import { Input, Operation } from '../routing/operation.decorator.ts';
import type { InputOf } from '../routing/operation-input.ts';
import { AdminKeyRequestsService } from './admin-key-requests.service.ts';
import { AdminRoute } from './admin-route.decorator.ts';
import { byOperator } from './audit-actor.ts';

/** Key requests for operators: read by any, decided by admins, every decision audited. */
@AdminRoute()
@Controller()
export class AdminKeyRequestsController {
  constructor(private readonly requests: AdminKeyRequestsService) {}

  /** Oldest first (the next due on top), a stable cursor over (created at, id). */
  @Operation(ROUTES.listKeyRequests)
  list(@Input() { query }: InputOf<'listKeyRequests'>): Promise<AdminKeyRequestPage> {
    return this.requests.list(query.status, query.cursor, query.limit);
  }

  @Operation(ROUTES.approveKeyRequest)
  approve(
    @Input() { params }: InputOf<'approveKeyRequest'>,
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
  ): Promise<AdminKeyRequest> {
    return this.requests.decide(params.requestId, operator, byOperator(operator, request), null);
  }

  @Operation(ROUTES.rejectKeyRequest)
  reject(
    @Input() { params, body }: InputOf<'rejectKeyRequest'>,
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
  ): Promise<AdminKeyRequest> {
    const who = byOperator(operator, request);
    return this.requests.decide(params.requestId, operator, who, body.reason);
  }
}
