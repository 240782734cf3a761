import type { WatermarkAccepted, WatermarkJob } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller } from '@nestjs/common';
import { type Client, CurrentClient } from '../auth/client.ts';
import { Input, Operation } from '../routing/operation.decorator.ts';
import type { InputOf } from '../routing/operation-input.ts';
import { WatermarkService } from './watermark.service.ts';

@Controller()
export class WatermarkController {
  constructor(private readonly watermark: WatermarkService) {}

  @Operation(ROUTES.createWatermarkJob)
  create(
    @CurrentClient() client: Client,
    @Input() { body, headers }: InputOf<'createWatermarkJob'>,
  ): Promise<WatermarkAccepted> {
    return this.watermark.create(client.apiKeyId, body, headers['Idempotency-Key']);
  }

  @Operation(ROUTES.getWatermarkJob)
  get(
    @CurrentClient() client: Client,
    @Input() { params }: InputOf<'getWatermarkJob'>,
  ): Promise<WatermarkJob> {
    return this.watermark.get(client.apiKeyId, params.requestId);
  }
}
