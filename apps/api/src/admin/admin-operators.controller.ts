import type { AdminOperator } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CurrentOperator, type Operator } from '../auth/client.ts';
import { Input, Operation } from '../routing/operation.decorator.ts';
import type { InputOf } from '../routing/operation-input.ts';
import { AdminOperatorsService } from './admin-operators.service.ts';
import { AdminRoute } from './admin-route.decorator.ts';
import { byOperator } from './audit-actor.ts';

/**
 * The console's operators, for admins: who they are, and what another admin may do to an
 * account that should no longer act (disable it, demote it, end its sessions, give it a new
 * password). Every change is audited with it.
 */
@AdminRoute({ adminsOnly: true })
@Controller()
export class AdminOperatorsController {
  constructor(private readonly operators: AdminOperatorsService) {}

  @Operation(ROUTES.listOperators)
  list(): Promise<{ items: AdminOperator[] }> {
    return this.operators.list();
  }

  @Operation(ROUTES.changeOperator)
  change(
    @Input() { params, body }: InputOf<'changeOperator'>,
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
  ): Promise<AdminOperator> {
    return this.operators.change(params.operatorId, body, byOperator(operator, request));
  }

  @Operation(ROUTES.signOutOperator)
  signOut(
    @Input() { params }: InputOf<'signOutOperator'>,
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
  ): Promise<AdminOperator> {
    return this.operators.signOut(params.operatorId, byOperator(operator, request));
  }

  @Operation(ROUTES.resetOperatorPassword)
  resetPassword(
    @Input() { params }: InputOf<'resetOperatorPassword'>,
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
  ): Promise<AdminOperator> {
    return this.operators.resetPassword(params.operatorId, byOperator(operator, request));
  }
}
