import { networkName } from '@hallmark/chain';
import { CONFIG, type HallmarkConfig, ipfsGatewayUrl, PrismaService } from '@hallmark/platform';
import type { AdminIpfsRecord, AdminNft } from '@hallmark/schemas';
import { Controller, Get, Inject, Query } from '@nestjs/common';
import { z } from 'zod';
import { NftOwnerRefresher } from '../records/nft-owner-refresher.ts';
import { parseRequest } from '../validation/parse-request.ts';
import { AdminRoute } from './admin-route.decorator.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';

const ListQuery = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

const unix = (date: Date) => Math.floor(date.getTime() / 1000);

/** Rows newer than the cursor's (time, id) come after it: newest first. */
function before(cursor: string | undefined, field: 'createdAt' | 'storedAt') {
  if (cursor === undefined) return {};
  const { at, id } = decodeCursor(cursor);
  return { OR: [{ [field]: { lt: at } }, { [field]: at, id: { lt: id } }] };
}

/** The NFTs and IPFS records of every key, newest first. */
@AdminRoute()
@Controller('admin')
export class AdminRecordsController {
  readonly #gateway: string;

  constructor(
    @Inject(CONFIG) config: HallmarkConfig,
    private readonly prisma: PrismaService,
    private readonly owners: NftOwnerRefresher,
  ) {
    this.#gateway = ipfsGatewayUrl(config);
  }

  /** Minted tokens; an owner older than NFT_OWNER_REFRESH_SECONDS is re-read behind the answer. */
  @Get('nfts')
  async nfts(@Query() query: Record<string, unknown>) {
    const { cursor, limit } = parseRequest(ListQuery, query, 'query');
    const rows = await this.prisma.client.nft.findMany({
      where: { tokenId: { not: null }, ...before(cursor, 'createdAt') },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
      include: { apiKey: { select: { prefix: true } } },
    });
    const page = rows.slice(0, limit);
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
        ownerAsOf: unix(ownerAsOf),
        txHash: row.txHash,
        imageCid: row.imageCid,
        metadataCid: row.metadataCid,
        mintedAt: unix(row.mintedAt ?? row.createdAt),
        requestId: row.jobId,
        keyPrefix: row.apiKey.prefix,
      };
    });
    const last = page.at(-1);
    return {
      items,
      nextCursor:
        rows.length > limit && last !== undefined ? encodeCursor(last.createdAt, last.id) : null,
    };
  }

  @Get('ipfs-records')
  async ipfsRecords(@Query() query: Record<string, unknown>) {
    const { cursor, limit } = parseRequest(ListQuery, query, 'query');
    const rows = await this.prisma.client.ipfsRecord.findMany({
      where: before(cursor, 'storedAt'),
      orderBy: [{ storedAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
      include: { apiKey: { select: { prefix: true } } },
    });
    const page = rows.slice(0, limit);
    const items: AdminIpfsRecord[] = page.map((row) => ({
      cid: row.cid,
      gatewayUrl: `${this.#gateway}/ipfs/${row.cid}`,
      metadata: row.metadata as Record<string, unknown>,
      storedAt: unix(row.storedAt),
      requestId: row.jobId,
      keyPrefix: row.apiKey.prefix,
    }));
    const last = page.at(-1);
    return {
      items,
      nextCursor:
        rows.length > limit && last !== undefined ? encodeCursor(last.storedAt, last.id) : null,
    };
  }
}
