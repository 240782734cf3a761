import { BatchIdParams, type WatermarkBatch, WatermarkBatchRequest } from '@hallmark/schemas';
import { Body, Controller, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { type Client, CurrentClient } from '../auth/client.ts';
import { idempotencyKeyOf } from '../idempotency/idempotency-key-header.ts';
import { parseRequest } from '../validation/parse-request.ts';
import { WatermarkBatchesService } from './watermark-batches.service.ts';

@Controller('watermark/batches')
export class WatermarkBatchesController {
  constructor(private readonly batches: WatermarkBatchesService) {}

  @Post()
  @HttpCode(202)
  create(
    @CurrentClient() client: Client,
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<WatermarkBatch> {
    return this.batches.create(
      client.apiKeyId,
      parseRequest(WatermarkBatchRequest, body, 'body'),
      idempotencyKeyOf(idempotencyKey),
    );
  }

  @Get(':batchId')
  get(@CurrentClient() client: Client, @Param('batchId') batchId: string): Promise<WatermarkBatch> {
    const params = parseRequest(BatchIdParams, { batchId }, 'path');
    return this.batches.get(client.apiKeyId, params.batchId);
  }
}
