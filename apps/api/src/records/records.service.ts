import { PrismaService } from '@hallmark/platform';
import type { IpfsRecord, Nft } from '@hallmark/schemas';
import { Injectable } from '@nestjs/common';
import { ProblemException } from '../problem/problem.exception.ts';
import { ChainService } from './chain.service.ts';
import { RecordViews } from './record-views.service.ts';

/** Spec 4.6 and 4.7: a key sees only the records of its own jobs; others' answer 404. */
@Injectable()
export class RecordsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly chain: ChainService,
    private readonly views: RecordViews,
  ) {}

  async ipfsRecord(apiKeyId: string, ipfsHash: string): Promise<IpfsRecord> {
    const row = await this.prisma.client.ipfsRecord.findFirst({
      where: { cid: ipfsHash, apiKeyId },
      orderBy: { storedAt: 'asc' },
    });
    if (row === null) throw ProblemException.notFound(`No IPFS record ${ipfsHash}.`);
    return this.views.ipfsRecord(row);
  }

  async nft(apiKeyId: string, tokenId: string): Promise<Nft> {
    const options = this.chain.options;
    const row =
      options === null
        ? null
        : await this.prisma.client.nft.findFirst({
            where: {
              tokenId,
              apiKeyId,
              chainId: options.chainId,
              contractAddress: options.contractAddress,
            },
          });
    if (row === null || row.tokenId === null || row.mintedAt === null) {
      throw ProblemException.notFound(`No NFT ${tokenId}.`);
    }
    const nft = await this.views.nft({ ...row, tokenId: row.tokenId, mintedAt: row.mintedAt });
    if (nft === null) throw ProblemException.notFound(`No NFT ${tokenId}.`);
    return nft;
  }
}
