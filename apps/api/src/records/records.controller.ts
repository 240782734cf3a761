import {
  IpfsHashParams,
  type IpfsRecord,
  type Nft,
  type NftTransfer,
  NftTransferRequest,
  TokenIdParams,
  TransferIdParams,
} from '@hallmark/schemas';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { type Client, CurrentClient } from '../auth/client.ts';
import { PageQuery } from '../paging/pages.ts';
import { parseRequest } from '../validation/parse-request.ts';
import { NftTransfersService } from './nft-transfers.service.ts';
import { RecordsService } from './records.service.ts';

@Controller()
export class RecordsController {
  constructor(
    private readonly records: RecordsService,
    private readonly transfers: NftTransfersService,
  ) {}

  @Post('nft/:tokenId/transfer')
  @HttpCode(202)
  transfer(
    @CurrentClient() client: Client,
    @Param('tokenId') tokenId: string,
    @Body() body: unknown,
  ): Promise<NftTransfer> {
    const params = parseRequest(TokenIdParams, { tokenId }, 'path');
    const request = parseRequest(NftTransferRequest, body, 'body');
    return this.transfers.request(client.apiKeyId, params.tokenId, request);
  }

  @Get('nft/transfers/:transferId')
  nftTransfer(
    @CurrentClient() client: Client,
    @Param('transferId') transferId: string,
  ): Promise<NftTransfer> {
    const params = parseRequest(TransferIdParams, { transferId }, 'path');
    return this.transfers.get(client.apiKeyId, params.transferId);
  }

  @Get('nft')
  nfts(@CurrentClient() client: Client, @Query() query: Record<string, unknown>) {
    const { cursor, limit } = parseRequest(PageQuery, query, 'query');
    return this.records.nfts(client.apiKeyId, cursor, limit);
  }

  @Get('ipfs')
  ipfsRecords(@CurrentClient() client: Client, @Query() query: Record<string, unknown>) {
    const { cursor, limit } = parseRequest(PageQuery, query, 'query');
    return this.records.ipfsRecords(client.apiKeyId, cursor, limit);
  }

  @Delete('ipfs/:ipfsHash')
  @HttpCode(204)
  async removeIpfsRecord(@CurrentClient() client: Client, @Param('ipfsHash') ipfsHash: string) {
    const params = parseRequest(IpfsHashParams, { ipfsHash }, 'path');
    await this.records.removeIpfsRecord(client.apiKeyId, params.ipfsHash);
  }

  @Get('nft/:tokenId')
  nft(@CurrentClient() client: Client, @Param('tokenId') tokenId: string): Promise<Nft> {
    const params = parseRequest(TokenIdParams, { tokenId }, 'path');
    return this.records.nft(client.apiKeyId, params.tokenId);
  }

  @Get('ipfs/:ipfsHash')
  ipfsRecord(
    @CurrentClient() client: Client,
    @Param('ipfsHash') ipfsHash: string,
  ): Promise<IpfsRecord> {
    const params = parseRequest(IpfsHashParams, { ipfsHash }, 'path');
    return this.records.ipfsRecord(client.apiKeyId, params.ipfsHash);
  }
}
