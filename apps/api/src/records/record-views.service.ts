import { marketplaceUrl, networkName } from '@hallmark/chain';
import type { IpfsRecord as IpfsRecordRow, Nft as NftRow } from '@hallmark/db';
import { parseCid } from '@hallmark/ipfs';
import { CONFIG, type HallmarkConfig, ipfsGatewayUrl } from '@hallmark/platform';
import { IpfsMetadata, type IpfsRecord, type Nft, NftMetadata } from '@hallmark/schemas';
import { Inject, Injectable } from '@nestjs/common';
import { ChainService } from './chain.service.ts';
import { IpfsService } from './ipfs.service.ts';

/** Builds the spec's IPFS record (2.5) and NFT (2.4) from their rows, the chain and IPFS. */
@Injectable()
export class RecordViews {
  readonly #gateway: string;

  constructor(
    @Inject(CONFIG) config: HallmarkConfig,
    private readonly ipfs: IpfsService,
    private readonly chain: ChainService,
  ) {
    this.#gateway = ipfsGatewayUrl(config);
  }

  ipfsRecord(row: IpfsRecordRow): IpfsRecord {
    return {
      ipfsHash: row.cid,
      ipfsUrl: `${this.#gateway}/ipfs/${row.cid}`,
      metadata: IpfsMetadata.parse(row.metadata),
      storedAt: Math.floor(row.storedAt.getTime() / 1000),
    };
  }

  /**
   * `owner` is read from the chain on every call, so a transfer shows at once; `metadata` is the
   * document the token URI names, read back from IPFS. Without a marketplace template (a local
   * chain has no marketplace) `marketplaceUrl` is the gateway page of the token's image.
   */
  async nft(row: NftRow & { tokenId: string; mintedAt: Date }): Promise<Nft> {
    const store = await this.ipfs.store();
    const metadata = NftMetadata.parse(await store.getJson(parseCid(row.metadataCid)));
    const owner = (await this.chain.registry?.ownerOf(BigInt(row.tokenId))) ?? row.mintedTo;
    const template = this.chain.options?.marketplaceUrlTemplate;
    return {
      tokenId: row.tokenId,
      contract: row.contractAddress,
      blockchain: networkName(row.chainId),
      owner,
      metadata,
      marketplaceUrl:
        template === undefined
          ? `${this.#gateway}/ipfs/${metadata.image.replace(/^ipfs:\/\//, '')}`
          : marketplaceUrl(template, {
              chainId: row.chainId,
              contract: row.contractAddress,
              tokenId: row.tokenId,
            }),
      mintedAt: Math.floor(row.mintedAt.getTime() / 1000),
    };
  }
}
