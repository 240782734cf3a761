import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { IpfsRecord } from '../ipfs-record.ts';
import { Nft } from '../nft.ts';
import { IpfsHashParams, TokenIdParams } from '../path-params.ts';
import { problemTypes } from '../problem-types.ts';
import { authenticatedCases, problemResponses } from './problem-responses.ts';
import { bearerAuth } from './security.ts';

export function registerRecordRoutes(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/nft/{tokenId}',
    operationId: 'getNft',
    tags: ['Records'],
    summary: 'Get an NFT minted for a watermarked file (spec 4.6)',
    security: bearerAuth,
    request: { params: TokenIdParams },
    responses: {
      200: { description: 'The NFT.', content: { 'application/json': { schema: Nft } } },
      ...problemResponses([
        { problem: problemTypes.validationError, when: '`tokenId` is not a decimal token id.' },
        { problem: problemTypes.notFound, when: 'no NFT with this `tokenId` was minted here.' },
        ...authenticatedCases,
      ]),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/ipfs/{ipfsHash}',
    operationId: 'getIpfsRecord',
    tags: ['Records'],
    summary: 'Get the IPFS record of a watermarked file (spec 4.7)',
    security: bearerAuth,
    request: { params: IpfsHashParams },
    responses: {
      200: {
        description: 'The IPFS record.',
        content: { 'application/json': { schema: IpfsRecord } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: '`ipfsHash` is not a CID.' },
        { problem: problemTypes.notFound, when: 'no record with this hash was stored here.' },
        ...authenticatedCases,
      ]),
    },
  });
}
