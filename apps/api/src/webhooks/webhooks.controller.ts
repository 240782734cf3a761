import type { WebhookDelivery, WebhookEndpoint } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller } from '@nestjs/common';
import { type Client, CurrentClient } from '../auth/client.ts';
import { Input, Operation } from '../routing/operation.decorator.ts';
import type { InputOf } from '../routing/operation-input.ts';
import { WebhooksService } from './webhooks.service.ts';

/** Standard Webhooks endpoints of the calling key (another key's answer 404). */
@Controller()
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Operation(ROUTES.createWebhookEndpoint)
  create(
    @CurrentClient() client: Client,
    @Input() { body }: InputOf<'createWebhookEndpoint'>,
  ): Promise<WebhookEndpoint> {
    return this.webhooks.create(client.apiKeyId, body);
  }

  @Operation(ROUTES.listWebhookEndpoints)
  list(@CurrentClient() client: Client, @Input() { query }: InputOf<'listWebhookEndpoints'>) {
    return this.webhooks.list(client.apiKeyId, query.cursor, query.limit);
  }

  @Operation(ROUTES.deleteWebhookEndpoint)
  async delete(
    @CurrentClient() client: Client,
    @Input() { params }: InputOf<'deleteWebhookEndpoint'>,
  ) {
    await this.webhooks.delete(client.apiKeyId, params.endpointId);
  }

  @Operation(ROUTES.rotateWebhookSecret)
  rotate(
    @CurrentClient() client: Client,
    @Input() { params }: InputOf<'rotateWebhookSecret'>,
  ): Promise<WebhookEndpoint> {
    return this.webhooks.rotate(client.apiKeyId, params.endpointId);
  }

  @Operation(ROUTES.listWebhookDeliveries)
  deliveries(
    @CurrentClient() client: Client,
    @Input() { params, query }: InputOf<'listWebhookDeliveries'>,
  ) {
    return this.webhooks.deliveries(client.apiKeyId, params.endpointId, query.cursor, query.limit);
  }

  @Operation(ROUTES.redeliverWebhook)
  redeliver(
    @CurrentClient() client: Client,
    @Input() { params }: InputOf<'redeliverWebhook'>,
  ): Promise<WebhookDelivery> {
    return this.webhooks.redeliver(client.apiKeyId, params.endpointId, params.deliveryId);
  }
}
