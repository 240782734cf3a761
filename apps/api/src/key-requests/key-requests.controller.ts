import {
  type KeyRequestAccepted,
  KeyRequestCreate,
  type KeyRequestKey,
  type KeyRequestStatus,
  RequestIdParams,
} from '@hallmark/schemas';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Public } from '../auth/public.decorator.ts';
import { clientAddress } from '../client-address.ts';
import { RateLimiter } from '../rate-limit/rate-limiter.service.ts';
import { parseRequest } from '../validation/parse-request.ts';
import { KeyRequestsService } from './key-requests.service.ts';

const StatusQuery = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Expected the token of the status link'),
});

/** Public: whoever asks for a key has none yet. Limited per address, tighter for new requests. */
@Public()
@Controller('key-requests')
export class KeyRequestsController {
  constructor(
    private readonly requests: KeyRequestsService,
    private readonly rateLimiter: RateLimiter,
  ) {}

  @Post()
  @HttpCode(202)
  async create(
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<KeyRequestAccepted> {
    reply.headers(
      await this.rateLimiter.enforce({ kind: 'key-request', address: clientAddress(request) }),
    );
    return this.requests.create(parseRequest(KeyRequestCreate, body, 'body'));
  }

  @Get(':requestId')
  status(
    @Param('requestId') requestId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<KeyRequestStatus> {
    const { requestId: id } = parseRequest(RequestIdParams, { requestId }, 'path');
    const { token } = parseRequest(StatusQuery, query, 'query');
    return this.requests.status(id, token);
  }

  /** A POST, never a link a mail scanner follows: the key is made and shown here, once. */
  @Post(':requestId/key')
  @HttpCode(201)
  collect(
    @Param('requestId') requestId: string,
    @Query() query: Record<string, unknown>,
  ): Promise<KeyRequestKey> {
    const { requestId: id } = parseRequest(RequestIdParams, { requestId }, 'path');
    const { token } = parseRequest(StatusQuery, query, 'query');
    return this.requests.collect(id, token);
  }
}
