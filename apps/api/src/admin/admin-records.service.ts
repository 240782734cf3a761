import { networkName } from '@hallmark/chain';
import { type HallmarkConfig, ipfsGatewayUrl } from '@hallmark/config';
import { CONFIG, PrismaService } from '@hallmark/runtime';
import {
  type AdminIpfsRecord,
  type AdminIpfsRecordPage,
  type AdminNft,
  type AdminNftPage,
  NftMetadata,
} from '@hallmark/schemas';
import { Inject, Injectable } from '@nestjs/common';
import { pageOf, pastCursor } from '../paging/pages.ts';
import { NftOwnerRefresher } from '../records/nft-owner-refresher.ts';
import { RecordViews } from '../records/record-views.service.ts';
import { unixSeconds } from '../time/unix-seconds.ts';

/** The NFTs and IPFS records of every key, newest first. */
@Injectable()
export class AdminRecordsService {
  readonly #gateway: string;

  constructor(
    @Inject(CONFIG) config: HallmarkConfig,
    private readonly prisma: PrismaService,
    private readonly owners: NftOwnerRefresher,
    private readonly views: RecordViews,
  ) {
    this.#gateway = ipfsGatewayUrl(config);
  }

  /** Minted tokens; an owner older than NFT_OWNER_REFRESH_SECONDS is re-read behind the answer. */
  async nfts(cursor: string | undefined, limit: number): Promise<AdminNftPage> {
    const rows = await this.prisma.client.nft.findMany({
      where: { tokenId: { not: null }, ...pastCursor(cursor, 'createdAt', 'desc') },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
      include: { apiKey: { select: { prefix: true } } },
    });
    const { page, nextCursor } = pageOf(rows, limit, (row) => row.createdAt);
    const items: AdminNft[] = page.map((row) => {
      const ownerAsOf = row.ownerCheckedAt ?? row.mintedAt ?? row.createdAt;
      if (row.tokenId !== null && this.owners.isStale(ownerAsOf)) {
        this.owners.refresh({ id: row.id, tokenId: row.tokenId });
      }
      return {
        tokenId: row.tokenId ?? '',
        network: networkName(row.chainId),
        contract: row.contractAddress,
        owner: row.owner ?? row.mintedTo,
        ownerAsOf: unixSeconds(ownerAsOf),
        txHash: row.txHash,
        marketplaceUrl:
          row.tokenId === null
            ? null
            : this.views.marketplaceUrl(
                { ...row, tokenId: row.tokenId },
                row.metadata === null ? null : NftMetadata.parse(row.metadata).image,
              ),
        imageCid: row.imageCid,
        metadataCid: row.metadataCid,
        mintedAt: unixSeconds(row.mintedAt ?? row.createdAt),
        requestId: row.jobId,
        keyPrefix: row.apiKey.prefix,
      };
    });
    return { items, nextCursor };
  }

  async ipfsRecords(cursor: string | undefined, limit: number): Promise<AdminIpfsRecordPage> {
    const rows = await this.prisma.client.ipfsRecord.findMany({
      where: pastCursor(cursor, 'storedAt', 'desc'),
      orderBy: [{ storedAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
      include: { apiKey: { select: { prefix: true } } },
    });
    const { page, nextCursor } = pageOf(rows, limit, (row) => row.storedAt);
    const items: AdminIpfsRecord[] = page.map((row) => ({
      cid: row.cid,
      gatewayUrl: `${this.#gateway}/ipfs/${row.cid}`,
      metadata: row.metadata as Record<string, unknown>,
      storedAt: unixSeconds(row.storedAt),
      requestId: row.jobId,
      keyPrefix: row.apiKey.prefix,
    }));
    return { items, nextCursor };
  }
}
