import type { AdminWebhookEndpointPage } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller } from '@nestjs/common';
import { Input, Operation } from '../routing/operation.decorator.ts';
import type { InputOf } from '../routing/operation-input.ts';
import { AdminRoute } from './admin-route.decorator.ts';
import { AdminWebhooksService } from './admin-webhooks.service.ts';

/** Every key's webhook endpoints and their delivery log, for operators (read only). */
@AdminRoute()
@Controller()
export class AdminWebhooksController {
  constructor(private readonly webhooks: AdminWebhooksService) {}

  @Operation(ROUTES.listAllWebhookEndpoints)
  endpoints(
    @Input() { query }: InputOf<'listAllWebhookEndpoints'>,
  ): Promise<AdminWebhookEndpointPage> {
    return this.webhooks.endpoints(query.cursor, query.limit);
  }

  @Operation(ROUTES.listEndpointDeliveries)
  deliveries(@Input() { params, query }: InputOf<'listEndpointDeliveries'>) {
    return this.webhooks.deliveries(params.endpointId, query.cursor, query.limit);
  }
}
