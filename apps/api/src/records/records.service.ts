import { lockIpfsContent, removeIpfsRecords } from '@hallmark/db';
import { parseCid } from '@hallmark/ipfs';
import { IpfsNode, PrismaService } from '@hallmark/runtime';
import { type IpfsRecord, type Nft, problemTypes } from '@hallmark/schemas';
import { Injectable } from '@nestjs/common';
import { pageOf, pastCursor } from '../paging/pages.ts';
import { ProblemException } from '../problem/problem.exception.ts';
import { ChainService } from './chain.service.ts';
import { RecordViews } from './record-views.service.ts';

/** a key sees only the records of its own jobs; others' answer 404. */
@Injectable()
export class RecordsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly chain: ChainService,
    private readonly views: RecordViews,
    private readonly ipfs: IpfsNode,
  ) {}

  async ipfsRecord(apiKeyId: string, ipfsHash: string): Promise<IpfsRecord> {
    const rows = await this.prisma.client.ipfsRecord.findMany({
      where: { cid: ipfsHash, apiKeyId },
      orderBy: { storedAt: 'asc' },
    });
    const live = rows.find((row) => row.removedAt === null);
    if (live !== undefined) return this.views.ipfsRecord(live);
    if (rows.length > 0) {
      throw new ProblemException(
        problemTypes.recordRemoved,
        `IPFS record ${ipfsHash} was removed.`,
      );
    }
    throw ProblemException.notFound(`No IPFS record ${ipfsHash}.`);
  }

  async ipfsRecords(apiKeyId: string, cursor: string | undefined, limit: number) {
    const rows = await this.prisma.client.ipfsRecord.findMany({
      where: { apiKeyId, removedAt: null, ...pastCursor(cursor, 'storedAt', 'desc') },
      orderBy: [{ storedAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
    });
    const { page, nextCursor } = pageOf(rows, limit, (row) => row.storedAt);
    return { items: page.map((row) => this.views.ipfsRecord(row)), nextCursor };
  }

  /**
   * Marks the key's records of this hash removed, then unpins the document unless something
   * else still needs it: another live record (identical metadata gives the same CID) or an NFT.
   * Under the content's lock, so a worker storing the same document for another job cannot pin
   * it between the count and the unpin. Asking again retries the unpin, so a failed one can be
   * finished.
   */
  async removeIpfsRecord(apiKeyId: string, ipfsHash: string): Promise<void> {
    const owned = await this.prisma.client.ipfsRecord.count({ where: { cid: ipfsHash, apiKeyId } });
    if (owned === 0) throw ProblemException.notFound(`No IPFS record ${ipfsHash}.`);
    const cid = parseCid(ipfsHash);
    await this.prisma.transaction(async (sql) => {
      await lockIpfsContent(sql, ipfsHash);
      const { stillHeld } = await removeIpfsRecords(sql, apiKeyId, ipfsHash);
      // The node is opened only when something is to be unpinned, as before the lock.
      if (!stillHeld) await (await this.ipfs.store()).unpin(cid);
    });
  }

  async nfts(apiKeyId: string, cursor: string | undefined, limit: number) {
    // The cursor is checked even when there is nothing to page through.
    const afterCursor = pastCursor(cursor, 'createdAt', 'desc');
    const options = this.chain.options;
    if (options === null) return { items: [], nextCursor: null };
    const rows = await this.prisma.client.nft.findMany({
      where: {
        apiKeyId,
        chainId: options.chainId,
        contractAddress: options.contractAddress,
        tokenId: { not: null },
        mintedAt: { not: null },
        ...afterCursor,
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
    });
    const { page, nextCursor } = pageOf(rows, limit, (row) => row.createdAt);
    const views = await Promise.all(
      page.map((row) =>
        row.tokenId === null || row.mintedAt === null
          ? null
          : this.views.nft({ ...row, tokenId: row.tokenId, mintedAt: row.mintedAt }),
      ),
    );
    return { items: views.filter((view): view is Nft => view !== null), nextCursor };
  }

  /** The key's NFT row of `tokenId` on the configured chain and contract, if there is one. */
  async ownNft(apiKeyId: string, tokenId: string) {
    const options = this.chain.options;
    if (options === null) return null;
    return this.prisma.client.nft.findFirst({
      where: {
        tokenId,
        apiKeyId,
        chainId: options.chainId,
        contractAddress: options.contractAddress,
      },
    });
  }

  async nft(apiKeyId: string, tokenId: string): Promise<Nft> {
    const row = await this.ownNft(apiKeyId, tokenId);
    if (row === null || row.tokenId === null || row.mintedAt === null) {
      throw ProblemException.notFound(`No NFT ${tokenId}.`);
    }
    const nft = await this.views.nft({ ...row, tokenId: row.tokenId, mintedAt: row.mintedAt });
    if (nft === null) throw ProblemException.notFound(`No NFT ${tokenId}.`);
    return nft;
  }
}
