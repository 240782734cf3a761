import type { WatermarkBatch } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller } from '@nestjs/common';
import { type Client, CurrentClient } from '../auth/client.ts';
import { Input, Operation } from '../routing/operation.decorator.ts';
import type { InputOf } from '../routing/operation-input.ts';
import { WatermarkBatchesService } from './watermark-batches.service.ts';

@Controller()
export class WatermarkBatchesController {
  constructor(private readonly batches: WatermarkBatchesService) {}

  @Operation(ROUTES.createWatermarkBatch)
  create(
    @CurrentClient() client: Client,
    @Input() { body, headers }: InputOf<'createWatermarkBatch'>,
  ): Promise<WatermarkBatch> {
    return this.batches.create(client.apiKeyId, body, headers['Idempotency-Key']);
  }

  @Operation(ROUTES.getWatermarkBatch)
  get(
    @CurrentClient() client: Client,
    @Input() { params }: InputOf<'getWatermarkBatch'>,
  ): Promise<WatermarkBatch> {
    return this.batches.get(client.apiKeyId, params.batchId);
  }
}
