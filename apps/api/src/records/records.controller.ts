import type { IpfsRecord, Nft, NftTransfer } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller } from '@nestjs/common';
import { type Client, CurrentClient } from '../auth/client.ts';
import { Input, Operation } from '../routing/operation.decorator.ts';
import type { InputOf } from '../routing/operation-input.ts';
import { NftTransfersService } from './nft-transfers.service.ts';
import { RecordsService } from './records.service.ts';

@Controller()
export class RecordsController {
  constructor(
    private readonly records: RecordsService,
    private readonly transfers: NftTransfersService,
  ) {}

  @Operation(ROUTES.transferNft)
  transfer(
    @CurrentClient() client: Client,
    @Input() { params, body }: InputOf<'transferNft'>,
  ): Promise<NftTransfer> {
    return this.transfers.request(client.apiKeyId, params.tokenId, body);
  }

  @Operation(ROUTES.getNftTransfer)
  nftTransfer(
    @CurrentClient() client: Client,
    @Input() { params }: InputOf<'getNftTransfer'>,
  ): Promise<NftTransfer> {
    return this.transfers.get(client.apiKeyId, params.transferId);
  }

  @Operation(ROUTES.listNfts)
  nfts(@CurrentClient() client: Client, @Input() { query }: InputOf<'listNfts'>) {
    return this.records.nfts(client.apiKeyId, query.cursor, query.limit);
  }

  @Operation(ROUTES.listIpfsRecords)
  ipfsRecords(@CurrentClient() client: Client, @Input() { query }: InputOf<'listIpfsRecords'>) {
    return this.records.ipfsRecords(client.apiKeyId, query.cursor, query.limit);
  }

  @Operation(ROUTES.deleteIpfsRecord)
  async removeIpfsRecord(
    @CurrentClient() client: Client,
    @Input() { params }: InputOf<'deleteIpfsRecord'>,
  ) {
    await this.records.removeIpfsRecord(client.apiKeyId, params.ipfsHash);
  }

  @Operation(ROUTES.getNft)
  nft(@CurrentClient() client: Client, @Input() { params }: InputOf<'getNft'>): Promise<Nft> {
    return this.records.nft(client.apiKeyId, params.tokenId);
  }

  @Operation(ROUTES.getIpfsRecord)
  ipfsRecord(
    @CurrentClient() client: Client,
    @Input() { params }: InputOf<'getIpfsRecord'>,
  ): Promise<IpfsRecord> {
    return this.records.ipfsRecord(client.apiKeyId, params.ipfsHash);
  }
}
