import {
  RequestIdParams,
  type WatermarkAccepted,
  type WatermarkJob,
  WatermarkRequest,
} from '@hallmark/schemas';
import { Body, Controller, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { type Client, CurrentClient } from '../auth/client.ts';
import { idempotencyKeyOf } from '../idempotency/idempotency-key-header.ts';
import { parseRequest } from '../validation/parse-request.ts';
import { WatermarkService } from './watermark.service.ts';

@Controller('watermark')
export class WatermarkController {
  constructor(private readonly watermark: WatermarkService) {}

  @Post()
  @HttpCode(202)
  create(
    @CurrentClient() client: Client,
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<WatermarkAccepted> {
    return this.watermark.create(
      client.apiKeyId,
      parseRequest(WatermarkRequest, body, 'body'),
      idempotencyKeyOf(idempotencyKey),
    );
  }

  @Get(':requestId')
  get(
    @CurrentClient() client: Client,
    @Param('requestId') requestId: string,
  ): Promise<WatermarkJob> {
    const params = parseRequest(RequestIdParams, { requestId }, 'path');
    return this.watermark.get(client.apiKeyId, params.requestId);
  }
}
