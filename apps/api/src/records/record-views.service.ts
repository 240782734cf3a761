import { marketplaceUrl, networkName } from '@hallmark/chain';
import { type HallmarkConfig, ipfsGatewayUrl, type Logger } from '@hallmark/config';
import type { IpfsRecord as IpfsRecordRow, Nft as NftRow } from '@hallmark/db';
import { parseCid } from '@hallmark/ipfs';
import { CONFIG, IpfsNode, LOGGER, PrismaService } from '@hallmark/runtime';
import { IpfsMetadata, type IpfsRecord, type Nft, NftMetadata } from '@hallmark/schemas';
import { Inject, Injectable } from '@nestjs/common';
import { withTimeout } from '../health/with-timeout.ts';
import { ChainService } from './chain.service.ts';
import { NftOwnerRefresher } from './nft-owner-refresher.ts';

const IPFS_TIMEOUT_MS = 2_000;

type MarketplaceToken = { chainId: number; contractAddress: string; tokenId: string };

/** Builds the API's IPFS record and NFT views from their rows. */
@Injectable()
export class RecordViews {
  readonly #gateway: string;

  constructor(
    @Inject(CONFIG) config: HallmarkConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly prisma: PrismaService,
    private readonly ipfs: IpfsNode,
    private readonly chain: ChainService,
    private readonly owners: NftOwnerRefresher,
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
   * Served from the row alone: the metadata document the worker stored beside its CID, and the
   * owner as last read from the chain (`ownerAsOf`), refreshed in the background once stale. A
   * read never waits for the chain or IPFS, so neither being down can fail it. Without a
   * marketplace template (a local chain has no marketplace) `marketplaceUrl` is the gateway page
   * of the token's image. Null for a row minted before metadata was kept, whose document IPFS
   * cannot give now.
   */
  async nft(row: NftRow & { tokenId: string; mintedAt: Date }): Promise<Nft | null> {
    const metadata = await this.#metadataOf(row);
    if (metadata === null) return null;
    const ownerAsOf = row.ownerCheckedAt ?? row.mintedAt;
    if (this.owners.isStale(ownerAsOf)) this.owners.refresh(row);
    return {
      tokenId: row.tokenId,
      contract: row.contractAddress,
      blockchain: networkName(row.chainId),
      owner: row.owner ?? row.mintedTo,
      ownerAsOf: Math.floor(ownerAsOf.getTime() / 1000),
      metadata,
      marketplaceUrl: this.marketplaceUrl(row, metadata.image),
      mintedAt: Math.floor(row.mintedAt.getTime() / 1000),
    };
  }

  /**
   * Where people see the token: the marketplace template's page, or without one (a local chain
   * has no marketplace) its image on the gateway. `image` is the metadata's `ipfs://<dir>/<file>`:
   * the file inside its directory, since a gateway serves no directory listing. Without a template
   * and without the metadata (a token minted before it was kept) there is no link: null.
   */
  marketplaceUrl(token: MarketplaceToken, image: string): string;
  marketplaceUrl(token: MarketplaceToken, image: string | null): string | null;
  marketplaceUrl(token: MarketplaceToken, image: string | null): string | null {
    const template = this.chain.options?.marketplaceUrlTemplate;
    if (template !== undefined) {
      return marketplaceUrl(template, {
        chainId: token.chainId,
        contract: token.contractAddress,
        tokenId: token.tokenId,
      });
    }
    return image === null ? null : `${this.#gateway}/ipfs/${image.replace(/^ipfs:\/\//, '')}`;
  }

  /** The stored document; for an older row, read once from IPFS (briefly) and kept. */
  async #metadataOf(row: NftRow): Promise<NftMetadata | null> {
    if (row.metadata !== null) return NftMetadata.parse(row.metadata);
    try {
      const store = await this.ipfs.store();
      const metadata = NftMetadata.parse(
        await withTimeout(store.getJson(parseCid(row.metadataCid)), IPFS_TIMEOUT_MS, 'IPFS'),
      );
      await this.prisma.client.nft.update({ where: { id: row.id }, data: { metadata } });
      return metadata;
    } catch (error) {
      this.logger.warn(
        { tokenId: row.tokenId, err: (error as Error).message },
        'nft metadata not stored and IPFS did not give it; the NFT is left out of this answer',
      );
      return null;
    }
  }
}
