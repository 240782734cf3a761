import type { KeyRequestAccepted, KeyRequestKey, KeyRequestStatus } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/public.decorator.ts';
import { clientAddress } from '../client-address.ts';
import { RateLimiter } from '../rate-limit/rate-limiter.service.ts';
import { Input, Operation } from '../routing/operation.decorator.ts';
import { type InputOf, parseOperationInput } from '../routing/operation-input.ts';
import { KeyRequestsService } from './key-requests.service.ts';

/** Public: whoever asks for a key has none yet. Limited per address, tighter for new requests. */
@Public()
@Controller()
export class KeyRequestsController {
  constructor(
    private readonly requests: KeyRequestsService,
    private readonly rateLimiter: RateLimiter,
  ) {}

  @Operation(ROUTES.createKeyRequest)
  async create(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<KeyRequestAccepted> {
    // Counted before the body is checked (so not with @Input()): a malformed request costs too.
    reply.headers(
      await this.rateLimiter.enforce({ kind: 'key-request', address: clientAddress(request) }),
    );
    const { body } = parseOperationInput(ROUTES.createKeyRequest, request);
    return this.requests.create(body);
  }

  @Operation(ROUTES.getKeyRequest)
  status(@Input() { params, query }: InputOf<'getKeyRequest'>): Promise<KeyRequestStatus> {
    return this.requests.status(params.requestId, query.token);
  }

  /** A POST, never a link a mail scanner follows: the key is made and shown here, once. */
  @Operation(ROUTES.collectKeyRequestKey)
  collect(@Input() { params, query }: InputOf<'collectKeyRequestKey'>): Promise<KeyRequestKey> {
    return this.requests.collect(params.requestId, query.token);
  }
}
