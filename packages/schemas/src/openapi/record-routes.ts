import { IpfsRecord, IpfsRecordPage } from '../ipfs-record.ts';
import { Nft, NftPage, NftTransfer, NftTransferRequest } from '../nft.ts';
import { PageQuery } from '../page-query.ts';
import { IpfsHashParams, TokenIdParams, TransferIdParams } from '../path-params.ts';
import { problemTypes } from '../problem-types.ts';
import { defineRoute } from './define-route.ts';
import { authenticatedCases, pageAnswers, problemResponses } from './problem-responses.ts';
import { bearerAuth } from './security.ts';

export function recordRoutes() {
  const getNft = defineRoute({
    method: 'get',
    path: '/nft/{tokenId}',
    operationId: 'getNft',
    tags: ['Records'],
    summary: 'Get an NFT minted for a watermarked file',
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

  const getIpfsRecord = defineRoute({
    method: 'get',
    path: '/ipfs/{ipfsHash}',
    operationId: 'getIpfsRecord',
    tags: ['Records'],
    summary: 'Get the IPFS record of a watermarked file',
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
        { problem: problemTypes.recordRemoved, when: 'the record was removed (`DELETE`).' },
        ...authenticatedCases,
      ]),
    },
  });

  const deleteIpfsRecord = defineRoute({
    method: 'delete',
    path: '/ipfs/{ipfsHash}',
    operationId: 'deleteIpfsRecord',
    tags: ['Records'],
    summary: 'Remove an IPFS record and unpin its content',
    description:
      "Unpins the document (on the embedded node its block is deleted at once; on Kubo at its next garbage collection; a pinning service drops its copy) unless another key's record holds the same CID, and marks this key's records with the hash removed: lookups then answer 410. NFT metadata is never unpinned: tokens point at it forever.",
    security: bearerAuth,
    request: { params: IpfsHashParams },
    responses: {
      204: { description: 'Removed (also when it already was).' },
      ...problemResponses([
        { problem: problemTypes.validationError, when: '`ipfsHash` is not a CID.' },
        { problem: problemTypes.notFound, when: 'this key has no record with this hash.' },
        ...authenticatedCases,
      ]),
    },
  });

  const transferNft = defineRoute({
    method: 'post',
    path: '/nft/{tokenId}/transfer',
    operationId: 'transferNft',
    tags: ['Records'],
    summary: 'Move a token out of the custody wallet',
    description:
      "For a token minted to the deployment's custody wallet: a worker signs the transfer, records it before broadcasting it (so it is never sent twice, whatever crashes) and waits for it to be mined. Follow it with `GET /nft/transfers/{transferId}`; once `confirmed`, the token's owner on the chain is `to`.",
    security: bearerAuth,
    request: {
      params: TokenIdParams,
      body: { required: true, content: { 'application/json': { schema: NftTransferRequest } } },
    },
    responses: {
      202: {
        description: 'Accepted; the transfer runs on a worker.',
        content: { 'application/json': { schema: NftTransfer } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: 'a malformed token id or address.' },
        { problem: problemTypes.notFound, when: 'this key has no such token.' },
        {
          problem: problemTypes.transferUnderWay,
          when: 'the token was transferred already, or a transfer of it is under way.',
        },
        ...authenticatedCases,
      ]),
    },
  });

  const getNftTransfer = defineRoute({
    method: 'get',
    path: '/nft/transfers/{transferId}',
    operationId: 'getNftTransfer',
    tags: ['Records'],
    summary: 'Follow a transfer',
    security: bearerAuth,
    request: { params: TransferIdParams },
    responses: {
      200: {
        description: 'The transfer.',
        content: { 'application/json': { schema: NftTransfer } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: '`transferId` is not a UUID.' },
        { problem: problemTypes.notFound, when: 'this key has no such transfer.' },
        ...authenticatedCases,
      ]),
    },
  });

  const listIpfsRecords = defineRoute({
    method: 'get',
    path: '/ipfs',
    operationId: 'listIpfsRecords',
    tags: ['Records'],
    summary: "This key's IPFS records, newest first",
    security: bearerAuth,
    request: { query: PageQuery },
    responses: pageAnswers(IpfsRecordPage, authenticatedCases),
  });

  const listNfts = defineRoute({
    method: 'get',
    path: '/nft',
    operationId: 'listNfts',
    tags: ['Records'],
    summary: "This key's minted NFTs, newest first",
    security: bearerAuth,
    request: { query: PageQuery },
    responses: pageAnswers(NftPage, authenticatedCases),
  });
  return {
    getNft,
    getIpfsRecord,
    deleteIpfsRecord,
    transferNft,
    getNftTransfer,
    listIpfsRecords,
    listNfts,
  };
}
