import { type HallmarkConfig } from '@hallmark/config';
import { CONFIG } from '@hallmark/runtime';
import type { VerificationAccepted, VerificationJob } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Client, CurrentClient } from '../auth/client.ts';
import { Input, Operation } from '../routing/operation.decorator.ts';
import type { InputOf } from '../routing/operation-input.ts';
import { readFileBody } from './image-body.ts';
import { VerifyService } from './verify.service.ts';

@Controller()
export class VerifyController {
  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    private readonly verify: VerifyService,
  ) {}

  /** The image in the body, verified at once (up to VERIFY_SYNC_MAX_BYTES). */
  @Operation(ROUTES.verifyImage)
  async file(
    @CurrentClient() client: Client,
    @Req() request: FastifyRequest,
  ): Promise<VerificationJob> {
    const bytes = await readFileBody(request.body, this.config.VERIFY_SYNC_MAX_BYTES);
    return this.verify.verifyNow(client.apiKeyId, bytes);
  }

  @Operation(ROUTES.createVerification)
  create(
    @CurrentClient() client: Client,
    @Input() { body, headers }: InputOf<'createVerification'>,
  ): Promise<VerificationAccepted> {
    return this.verify.create(client.apiKeyId, body, headers['Idempotency-Key']);
  }

  /** The verified file with the regions where it was edited outlined (PNG). */
  @Operation(ROUTES.getVerificationRegions)
  async regions(
    @CurrentClient() client: Client,
    @Input() { params }: InputOf<'getVerificationRegions'>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer> {
    const picture = await this.verify.regionsPicture(client.apiKeyId, params.requestId);
    reply.header('content-type', 'image/png').header('cache-control', 'private, no-store');
    return Buffer.from(picture.buffer, picture.byteOffset, picture.length);
  }

  @Operation(ROUTES.getVerification)
  get(
    @CurrentClient() client: Client,
    @Input() { params }: InputOf<'getVerification'>,
  ): Promise<VerificationJob> {
    return this.verify.get(client.apiKeyId, params.requestId);
  }
}
