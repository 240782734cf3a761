import { CONFIG, type HallmarkConfig } from '@hallmark/platform';
import {
  RequestIdParams,
  type VerificationAccepted,
  type VerificationJob,
  VerifyRequest,
} from '@hallmark/schemas';
import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Inject,
  Param,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Client, CurrentClient } from '../auth/client.ts';
import { idempotencyKeyOf } from '../idempotency/idempotency-key-header.ts';
import { parseRequest } from '../validation/parse-request.ts';
import { readImageBody } from './image-body.ts';
import { VerifyService } from './verify.service.ts';

@Controller('verify')
export class VerifyController {
  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    private readonly verify: VerifyService,
  ) {}

  /** The image in the body, verified at once (up to VERIFY_SYNC_MAX_BYTES). */
  @Post('file')
  @HttpCode(200)
  async file(
    @CurrentClient() client: Client,
    @Req() request: FastifyRequest,
  ): Promise<VerificationJob> {
    const bytes = await readImageBody(request.body, this.config.VERIFY_SYNC_MAX_BYTES);
    return this.verify.verifyNow(client.apiKeyId, bytes);
  }

  @Post()
  @HttpCode(202)
  create(
    @CurrentClient() client: Client,
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
  ): Promise<VerificationAccepted> {
    return this.verify.create(
      client.apiKeyId,
      parseRequest(VerifyRequest, body, 'body'),
      idempotencyKeyOf(idempotencyKey),
    );
  }

  /** The verified file with the regions where it was edited outlined (PNG). */
  @Get(':requestId/regions.png')
  async regions(
    @CurrentClient() client: Client,
    @Param('requestId') requestId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer> {
    const params = parseRequest(RequestIdParams, { requestId }, 'path');
    const picture = await this.verify.regionsPicture(client.apiKeyId, params.requestId);
    reply.header('content-type', 'image/png').header('cache-control', 'private, no-store');
    return Buffer.from(picture.buffer, picture.byteOffset, picture.length);
  }

  @Get(':requestId')
  get(
    @CurrentClient() client: Client,
    @Param('requestId') requestId: string,
  ): Promise<VerificationJob> {
    const params = parseRequest(RequestIdParams, { requestId }, 'path');
    return this.verify.get(client.apiKeyId, params.requestId);
  }
}
