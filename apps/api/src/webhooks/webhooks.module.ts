import { Module } from '@nestjs/common';
import { WebhooksController } from './webhooks.controller.ts';
import { WebhooksService } from './webhooks.service.ts';

@Module({ controllers: [WebhooksController], providers: [WebhooksService] })
export class WebhooksModule {}
