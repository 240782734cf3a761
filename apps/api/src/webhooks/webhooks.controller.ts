import {
  DeliveryParams,
  EndpointIdParams,
  type WebhookDelivery,
  type WebhookEndpoint,
  WebhookEndpointCreate,
} from '@hallmark/schemas';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { type Client, CurrentClient } from '../auth/client.ts';
import { PageQuery } from '../paging/pages.ts';
import { parseRequest } from '../validation/parse-request.ts';
import { WebhooksService } from './webhooks.service.ts';

/** Standard Webhooks endpoints of the calling key (another key's answer 404). */
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @HttpCode(201)
  create(@CurrentClient() client: Client, @Body() body: unknown): Promise<WebhookEndpoint> {
    return this.webhooks.create(client.apiKeyId, parseRequest(WebhookEndpointCreate, body, 'body'));
  }

  @Get()
  list(@CurrentClient() client: Client, @Query() query: Record<string, unknown>) {
    const { cursor, limit } = parseRequest(PageQuery, query, 'query');
    return this.webhooks.list(client.apiKeyId, cursor, limit);
  }

  @Delete(':endpointId')
  @HttpCode(204)
  async delete(@CurrentClient() client: Client, @Param('endpointId') endpointId: string) {
    const params = parseRequest(EndpointIdParams, { endpointId }, 'path');
    await this.webhooks.delete(client.apiKeyId, params.endpointId);
  }

  @Post(':endpointId/rotate-secret')
  @HttpCode(200)
  rotate(
    @CurrentClient() client: Client,
    @Param('endpointId') endpointId: string,
  ): Promise<WebhookEndpoint> {
    const params = parseRequest(EndpointIdParams, { endpointId }, 'path');
    return this.webhooks.rotate(client.apiKeyId, params.endpointId);
  }

  @Get(':endpointId/deliveries')
  deliveries(
    @CurrentClient() client: Client,
    @Param('endpointId') endpointId: string,
    @Query() query: Record<string, unknown>,
  ) {
    const params = parseRequest(EndpointIdParams, { endpointId }, 'path');
    const { cursor, limit } = parseRequest(PageQuery, query, 'query');
    return this.webhooks.deliveries(client.apiKeyId, params.endpointId, cursor, limit);
  }

  @Post(':endpointId/deliveries/:deliveryId/redeliver')
  @HttpCode(202)
  redeliver(
    @CurrentClient() client: Client,
    @Param('endpointId') endpointId: string,
    @Param('deliveryId') deliveryId: string,
  ): Promise<WebhookDelivery> {
    const params = parseRequest(DeliveryParams, { endpointId, deliveryId }, 'path');
    return this.webhooks.redeliver(client.apiKeyId, params.endpointId, params.deliveryId);
  }
}
