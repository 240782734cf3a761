import { IpfsHashParams, type IpfsRecord, type Nft, TokenIdParams } from '@hallmark/schemas';
import { Controller, Get, Param } from '@nestjs/common';
import { type Client, CurrentClient } from '../auth/client.ts';
import { parseRequest } from '../validation/parse-request.ts';
import { RecordsService } from './records.service.ts';

@Controller()
export class RecordsController {
  constructor(private readonly records: RecordsService) {}

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
