import { type HallmarkConfig, publicBaseUrl } from '@hallmark/config';
import type { VerificationRow } from '@hallmark/db';
import { CONFIG, PrismaService } from '@hallmark/runtime';
import {
  type PublicVerificationReport,
  type PublishedRecord,
  type VerificationJob,
  type VerificationReport,
  WatermarkOptions,
} from '@hallmark/schemas';
import { CONTENT_NOT_COMPARED, publicReport, type StoredReport } from '@hallmark/verification';
import { FINGERPRINT_ALGORITHM } from '@hallmark/watermark-core';
import { Inject, Injectable } from '@nestjs/common';
import { RecordViews } from '../records/record-views.service.ts';

/** No key: a record's job ids are shown only to the key that made the job, and no key id is empty. */
const NO_KEY = '';

/**
 * Builds the answer for one caller from a stored verification. The published record is read at
 * answer time (its NFT owner moves on), and its ids are shown only to the key that made the job.
 */
@Injectable()
export class VerificationViews {
  readonly #baseUrl: string;

  constructor(
    @Inject(CONFIG) config: HallmarkConfig,
    private readonly prisma: PrismaService,
    private readonly records: RecordViews,
  ) {
    this.#baseUrl = publicBaseUrl(config);
  }

  async job(row: VerificationRow, apiKeyId: string): Promise<VerificationJob> {
    const base = { status: row.status, requestId: row.id, fileId: row.fileId };
    if (row.status === 'failed') {
      return {
        ...base,
        error: {
          code: row.errorCode ?? 'internal_error',
          message: row.errorMessage ?? 'The verification failed.',
        },
      };
    }
    if (row.status !== 'success' || row.report === null) return base;
    return { ...base, result: await this.report(row.report as StoredReport, apiKeyId) };
  }

  async report(stored: StoredReport, apiKeyId: string): Promise<VerificationReport> {
    const { findings, decision } = stored;
    const record =
      stored.issuedRequestId === null ? null : await this.#record(stored.issuedRequestId, apiKeyId);
    const types = [
      ...(findings.invisible.found ? (['invisible'] as const) : []),
      ...(findings.c2pa.present ? (['c2pa'] as const) : []),
    ];
    return {
      isWatermarked: types.length > 0,
      watermarkTypes: types,
      metadata: record === null ? findings.c2pa.metadata : publishedFacts(record),
      ipfsLink: record?.ipfs?.ipfsUrl ?? null,
      nftInfo: record?.nft ?? null,
      verdict: decision.verdict,
      reasons: decision.reasons,
      invisible: findings.invisible,
      c2pa: findings.c2pa,
      fingerprint: {
        algorithm: FINGERPRINT_ALGORITHM,
        value: findings.fingerprint ?? null,
        distance: stored.fingerprintDistance ?? null,
      },
      content: stored.content ?? CONTENT_NOT_COMPARED,
      record,
    };
  }

  /** As anyone may see it: the public page, the console's view, every signed report. */
  async forAnyone(stored: StoredReport): Promise<PublicVerificationReport> {
    return publicReport(await this.report(stored, NO_KEY));
  }

  async #record(requestId: string, apiKeyId: string): Promise<PublishedRecord | null> {
    const job = await this.prisma.client.watermarkJob.findUnique({
      where: { id: requestId },
      include: { ipfsRecord: true, nft: true },
    });
    if (job === null) return null;
    const options = WatermarkOptions.parse(job.options);
    const nft =
      job.nft !== null && job.nft.tokenId !== null && job.nft.mintedAt !== null
        ? await this.records.nft({
            ...job.nft,
            tokenId: job.nft.tokenId,
            mintedAt: job.nft.mintedAt,
          })
        : null;
    return {
      ...(options.data ?? {}),
      watermarkTypes: options.watermarkType,
      issuedAt: Math.floor((job.finishedAt ?? job.createdAt).getTime() / 1000),
      manifestId: job.manifestId,
      manifestUrl:
        job.manifestId === null
          ? null
          : `${this.#baseUrl}/manifests/${encodeURIComponent(job.manifestId)}`,
      ipfs: job.ipfsRecord === null ? null : this.records.ipfsRecord(job.ipfsRecord),
      nft,
      ...(job.apiKeyId === apiKeyId ? { requestId: job.id, fileId: job.fileId } : {}),
    };
  }
}

/** The facts given at watermarking, as the record publishes them. */
function publishedFacts(record: PublishedRecord): VerificationReport['metadata'] {
  const facts: VerificationReport['metadata'] = {};
  for (const key of [
    'author',
    'creationDate',
    'description',
    'copyright',
    'licenseType',
  ] as const) {
    const value = record[key];
    if (value !== undefined) facts[key] = value;
  }
  return facts;
}
