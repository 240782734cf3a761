import {
  IdempotencyKey,
  RequestIdParams,
  type WatermarkAccepted,
  type WatermarkJob,
  WatermarkRequest,
} from '@hallmark/schemas';
import { Body, Controller, Get, Headers, HttpCode, Param, Post } from '@nestjs/common';
import { z } from 'zod';
import { type Client, CurrentClient } from '../auth/client.ts';
import { parseRequest } from '../validation/parse-request.ts';
import { WatermarkService } from './watermark.service.ts';

const IdempotencyHeaders = z.object({ 'idempotency-key': IdempotencyKey.optional() });

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
    const headers = parseRequest(
      IdempotencyHeaders,
      { 'idempotency-key': idempotencyKey },
      'headers',
    );
    return this.watermark.create(
      client.apiKeyId,
      parseRequest(WatermarkRequest, body, 'body'),
      headers['idempotency-key'],
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
