import { type HallmarkConfig } from '@hallmark/config';
import { returnMintSlot, type Sql, storedBytes, takeMintSlot, utcDay } from '@hallmark/db';
import { CONFIG, PrismaService } from '@hallmark/runtime';
import { Inject, Injectable } from '@nestjs/common';
import { ProblemException } from '../problem/problem.exception.ts';

/** A mint slot taken for a request; given back when the request is then refused. */
export interface MintSlot {
  giveBack(): Promise<void>;
}

/**
 * The per-key quotas, checked before anything is stored or queued: NFT jobs per UTC day
 * (QUOTA_MINTS_PER_DAY: each is paid for by the service's wallet) and bytes stored
 * (QUOTA_STORED_BYTES: uploads plus outputs, until retention deletes them, and the bytes queued
 * jobs reserve for their outputs).
 */
@Injectable()
export class Quotas {
  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    private readonly prisma: PrismaService,
  ) {}

  /** The storage quota, for statements that write only while a key stores less. */
  get storedBytesLimit(): number {
    return this.config.QUOTA_STORED_BYTES;
  }

  /** Refuses when the key stores (or its queued jobs reserve) its quota; `sql` reads inside a transaction. */
  async assertStorageLeft(apiKeyId: string, sql: Sql = this.prisma.sql): Promise<void> {
    const limit = this.config.QUOTA_STORED_BYTES;
    const used = await storedBytes(sql, apiKeyId);
    if (used < limit) return;
    throw ProblemException.quotaExceeded(
      'stored_bytes',
      limit,
      `This API key stores, or has reserved for the outputs of its queued jobs, ${used} bytes; its quota is ${limit}. Stored files count until retention deletes them; a queued job reserves its file's size until its output is stored or it fails.`,
    );
  }

  async takeMint(apiKeyId: string): Promise<MintSlot> {
    const limit = this.config.QUOTA_MINTS_PER_DAY;
    const now = new Date();
    const day = utcDay(now);
    if (!(await takeMintSlot(this.prisma.sql, apiKeyId, day, limit))) {
      const nextDay = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
      throw ProblemException.quotaExceeded(
        'mints_per_day',
        limit,
        `This API key may ask for ${limit} NFTs per day (UTC); the quota renews at midnight UTC.`,
        Math.ceil((nextDay - now.getTime()) / 1000),
      );
    }
    return { giveBack: () => returnMintSlot(this.prisma.sql, apiKeyId, day) };
  }
}
