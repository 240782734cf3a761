import { requestTransfer, type TransferView } from '@hallmark/db';
import { PrismaService } from '@hallmark/runtime';
import { type NftTransfer, type NftTransferRequest, problemTypes } from '@hallmark/schemas';
import { Injectable } from '@nestjs/common';
import { getAddress } from 'viem';
import { ProblemException } from '../problem/problem.exception.ts';
import { unixSeconds } from '../time/unix-seconds.ts';
import { RecordsService } from './records.service.ts';

/** `POST /nft/{tokenId}/transfer`: recorded here, carried out by a worker (NftTransfers). */
@Injectable()
export class NftTransfersService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly records: RecordsService,
  ) {}

  async request(apiKeyId: string, tokenId: string, body: NftTransferRequest): Promise<NftTransfer> {
    const nft = await this.records.ownNft(apiKeyId, tokenId);
    if (nft === null) throw ProblemException.notFound(`No NFT ${tokenId}.`);
    const toAddress = getAddress(body.to);
    const outcome = await this.prisma.transaction((sql) =>
      requestTransfer(sql, { nftId: nft.id, apiKeyId, toAddress }),
    );
    if ('underWay' in outcome) {
      throw new ProblemException(
        problemTypes.transferUnderWay,
        `Token ${tokenId} was transferred already, or its transfer ${outcome.underWay} is under way.`,
      );
    }
    return transferView(outcome.created, tokenId);
  }

  async get(apiKeyId: string, transferId: string): Promise<NftTransfer> {
    const row = await this.prisma.client.nftTransfer.findFirst({
      where: { id: transferId, apiKeyId },
      include: { nft: { select: { tokenId: true } } },
    });
    if (row === null) throw ProblemException.notFound(`No transfer ${transferId}.`);
    return transferView(row, row.nft.tokenId ?? '');
  }
}

function transferView(row: TransferView, tokenId: string): NftTransfer {
  return {
    transferId: row.id,
    tokenId,
    to: row.toAddress,
    status: row.status,
    transactionHash: row.txHash,
    createdAt: unixSeconds(row.createdAt),
    confirmedAt: row.confirmedAt === null ? null : unixSeconds(row.confirmedAt),
    error:
      row.errorCode === null
        ? null
        : { code: row.errorCode, message: row.errorMessage ?? row.errorCode },
  };
}
