import { handleGatewayRequest } from '@hallmark/ipfs';
import { IpfsNode } from '@hallmark/runtime';
import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/public.decorator.ts';

/**
 * A trustless gateway for the embedded IPFS node, so `ipfsUrl` and `ipfs://` links work on one
 * machine: `Accept: application/vnd.ipld.raw` gives the raw, verifiable block; otherwise the
 * JSON document or file itself. Public, like any IPFS gateway: content is addressed by its hash.
 */
@Public()
@Controller('gateway/ipfs')
export class GatewayController {
  constructor(private readonly ipfs: IpfsNode) {}

  @Get('*')
  async serve(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const url = new URL(request.url, 'http://localhost');
    const response = await handleGatewayRequest(await this.ipfs.store(), {
      // As sent: the gateway decodes each segment and answers a malformed escape with a 400.
      cidAndPath: url.pathname.replace(/^\/gateway\/ipfs\//, ''),
      accept: request.headers.accept,
      format: url.searchParams.get('format') ?? undefined,
    });
    await reply.status(response.status).headers(response.headers).send(Buffer.from(response.body));
  }
}
