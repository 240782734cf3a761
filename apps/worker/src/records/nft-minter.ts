import {
  ChainError,
  type ChainOptions,
  custodyAddressOf,
  type MintedToken,
  NftRegistry,
  resolveTokenOwner,
} from '@hallmark/chain';
import { type HallmarkConfig, type Logger } from '@hallmark/config';
import {
  claimMintSigning,
  forgetMintTransaction,
  type JobLease,
  type Nft,
  recordMintedToken,
  recordMintTransaction,
} from '@hallmark/db';
import { buildNftMetadata, type WatermarkFacts } from '@hallmark/ipfs';
import { CONFIG, chainMintOptions, LOGGER, PrismaService } from '@hallmark/runtime';
import { mintFee, mintGas, mints, storedBytes } from '@hallmark/runtime/metrics';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Hash, Hex } from 'viem';
import type { LeaseKeeper } from '../lease-keeper.ts';
import { PermanentJobFailure } from '../watermark/job-failure.ts';
import { IpfsRecords, type JobRef } from './ipfs-records.ts';

/** The job's output: its bytes, or (a video, a recording) the local file holding them. */
export type WatermarkedOutput =
  | { readonly fileName: string; readonly bytes: Uint8Array }
  | { readonly fileName: string; readonly path: string };

/**
 * The NFT side of a job: the file and its ERC-721 metadata on IPFS, then one token. At most one
 * mint transaction per job is ever broadcast: the run claims the signing on the job's NFT row
 * with its lease, and writes the signed transaction there before broadcasting it, only while its
 * claim stands (see @hallmark/db's nft-mint statements). A later run finds the recorded
 * transaction and looks it up on the chain (or re-sends the very same bytes, which cannot mint
 * twice) instead of minting again; a mint that timed out is found there by its hash.
 */
@Injectable()
export class NftMinter implements OnModuleInit {
  #options: ChainOptions | null = null;
  #registry: NftRegistry | null = null;

  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly prisma: PrismaService,
    private readonly ipfs: IpfsRecords,
  ) {}

  async onModuleInit(): Promise<void> {
    this.#options = await chainMintOptions(this.config);
    if (this.#options !== null) this.#registry = new NftRegistry(this.#options);
  }

  /**
   * The registry that signs with the minter key, shared with transfers so that one process
   * signs every transaction of that key in one sequence (nonces).
   */
  get registry(): NftRegistry | null {
    return this.#registry;
  }

  get available(): boolean {
    return this.#registry !== null;
  }

  async mint(
    job: JobRef,
    keeper: LeaseKeeper<JobLease>,
    output: WatermarkedOutput,
    facts: WatermarkFacts,
  ): Promise<void> {
    const registry = this.#registry;
    const options = this.#options;
    if (registry === null || options === null) {
      throw new PermanentJobFailure(
        'nft_unavailable',
        'This deployment has no blockchain for minting.',
      );
    }
    const nft =
      (await this.prisma.client.nft.findUnique({ where: { jobId: job.id } })) ??
      (await this.#prepare(job, output, facts, options));
    if (nft.tokenId !== null) return;
    try {
      const minted = await this.#mintOnce(registry, nft, keeper);
      await recordMintedToken(this.prisma.sql, nft.id, {
        tokenId: minted.tokenId.toString(),
        blockNumber: BigInt(minted.blockNumber),
        mintedAt: new Date(minted.blockTime * 1000),
        gasUsed: BigInt(minted.gasUsed),
        feeWei: minted.feeWei.toString(),
      });
      mints.inc();
      mintGas.inc(Number(minted.gasUsed));
      mintFee.inc(Number(minted.feeWei) / 1e18);
      this.logger.info(
        {
          requestId: job.id,
          tokenId: minted.tokenId.toString(),
          gasUsed: minted.gasUsed.toString(),
          feeWei: minted.feeWei.toString(),
        },
        'nft minted',
      );
    } catch (error) {
      if (error instanceof ChainError && error.code === 'nonce_conflict') {
        // The recorded transaction can never be mined: forget it so the retry signs a new one.
        const current = await this.prisma.client.nft.findUniqueOrThrow({ where: { id: nft.id } });
        if (current.txHash !== null) {
          await forgetMintTransaction(this.prisma.sql, nft.id, keeper.lease, current.txHash);
        }
      }
      if (error instanceof ChainError && error.code === 'misconfigured') {
        throw new PermanentJobFailure('nft_unavailable', error.message);
      }
      throw error;
    }
  }

  /** The token's content on IPFS and the row that will record the mint. */
  async #prepare(
    job: JobRef,
    output: WatermarkedOutput,
    facts: WatermarkFacts,
    options: ChainOptions,
  ): Promise<Nft> {
    const store = await this.ipfs.store();
    const directory = await store.addDirectory([
      'path' in output
        ? { name: output.fileName, path: output.path }
        : { name: output.fileName, bytes: output.bytes },
    ]);
    storedBytes.inc({ store: 'ipfs' }, directory.files[0]?.size ?? 0);
    const metadata = buildNftMetadata({
      ...facts,
      name:
        facts.data?.author === undefined
          ? output.fileName
          : `${output.fileName} by ${facts.data.author}`,
      description:
        facts.data?.description ?? `Watermarked by Hallmark (${facts.watermarkTypes.join(', ')}).`,
      dirCid: directory.cid,
      fileName: output.fileName,
    });
    const metadataCid = await store.addJson(metadata);
    await store.pin(directory.cid, { name: `hallmark-image-${job.id}` });
    await store.pin(metadataCid, { name: `hallmark-nft-${job.id}` });
    const apiKey = await this.prisma.client.apiKey.findUnique({
      where: { id: job.apiKeyId },
      select: { walletAddress: true },
    });
    const mintedTo = resolveTokenOwner({
      apiKeyWallet: apiKey?.walletAddress ?? null,
      custodyAddress: custodyAddressOf(options),
    });
    return this.prisma.client.nft.upsert({
      where: { jobId: job.id },
      create: {
        jobId: job.id,
        apiKeyId: job.apiKeyId,
        chainId: options.chainId,
        contractAddress: options.contractAddress,
        mintedTo,
        imageCid: directory.cid.toString(),
        metadataCid: metadataCid.toString(),
        // Kept beside its CID, so that reading the job never needs IPFS.
        metadata: { ...metadata },
      },
      update: {},
    });
  }

  async #mintOnce(
    registry: NftRegistry,
    nft: Nft,
    keeper: LeaseKeeper<JobLease>,
  ): Promise<MintedToken> {
    keeper.assertHeld();
    if (nft.txHash !== null && nft.rawTransaction !== null) {
      const txHash = nft.txHash as Hash;
      const found = await registry.findMintByTxHash(txHash);
      if (found !== null) return found;
      await registry.rebroadcast(nft.rawTransaction as Hex);
      return registry.waitForMint(txHash);
    }
    keeper.confirm(await claimMintSigning(this.prisma.sql, nft.id, keeper.lease));
    const signed = await registry.sendMint({
      to: nft.mintedTo as `0x${string}`,
      tokenUri: `ipfs://${nft.metadataCid}`,
      // Throwing here keeps the transaction from ever being sent.
      beforeBroadcast: async (mint) => {
        keeper.confirm(
          await recordMintTransaction(this.prisma.sql, nft.id, keeper.lease, {
            txHash: mint.txHash,
            rawTransaction: mint.rawTransaction,
          }),
        );
      },
    });
    return registry.waitForMint(signed.txHash);
  }
}
