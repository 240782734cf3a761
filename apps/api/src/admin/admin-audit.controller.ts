import type { AuditPage } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller } from '@nestjs/common';
import { Input, Operation } from '../routing/operation.decorator.ts';
import type { InputOf } from '../routing/operation-input.ts';
import { AdminAuditService } from './admin-audit.service.ts';
import { AdminRoute } from './admin-route.decorator.ts';

/**
 * The audit log, newest first: every change an operator made, every sign-in and sign-out, and
 * what the CLI did on the server (`operator` then says `cli:<user>@<host>`, or `anonymous` for a
 * sign-in that failed).
 */
@AdminRoute()
@Controller()
export class AdminAuditController {
  constructor(private readonly audit: AdminAuditService) {}

  @Operation(ROUTES.listAudit)
  list(@Input() { query }: InputOf<'listAudit'>): Promise<AuditPage> {
    return this.audit.page(query.cursor, query.limit);
  }
}
