import { randomUUID } from 'node:crypto';
import { type HallmarkConfig } from '@hallmark/config';
import { findJobByIdempotencyKey, insertJob } from '@hallmark/db';
import { CONFIG, OBJECT_STORAGE, PrismaService } from '@hallmark/runtime';
import {
  requestedRecords,
  type WatermarkAccepted,
  type WatermarkJob,
  type WatermarkOptions,
  type WatermarkRequest,
} from '@hallmark/schemas';
import type { ObjectStorage } from '@hallmark/storage';
import { Inject, Injectable } from '@nestjs/common';
import { assertFileUsable, MARKABLE_CONTENT_TYPES, notUploaded } from '../files/usable-file.ts';
import { requestHash } from '../idempotency/request-hash.ts';
import { assertSameRequest } from '../idempotency/same-request.ts';
import { withIdempotency } from '../idempotency/with-idempotency.ts';
import { ProblemException } from '../problem/problem.exception.ts';
import { JobQueueProvider } from '../queue/job-queue.provider.ts';
import { type MintSlot, Quotas } from '../quotas/quotas.service.ts';
import { RecordViews } from '../records/record-views.service.ts';
import { toJobView } from './job-view.ts';
import { JobViewCache } from './job-view-cache.service.ts';

@Injectable()
export class WatermarkService {
  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly prisma: PrismaService,
    private readonly queues: JobQueueProvider,
    private readonly views: RecordViews,
    private readonly quotas: Quotas,
    private readonly jobRows: JobViewCache,
  ) {}

  /**
   * The job row is written first and is the promise: if Redis is away the entry is
   * queued later by the worker's reconciler, so an accepted request is never lost.
   */
  async create(
    apiKeyId: string,
    request: WatermarkRequest,
    idempotencyKey: string | undefined,
  ): Promise<WatermarkAccepted> {
    const hash = idempotencyKey === undefined ? null : requestHash(request);
    return withIdempotency(
      idempotencyKey,
      () => this.#replay(apiKeyId, idempotencyKey ?? '', hash),
      async () => {
        // Quotas before anything is written or queued (the storage quota is a condition of the
        // job's insert); a replay costs nothing.
        const mint: MintSlot | null =
          request.options.mintNft === true ? await this.quotas.takeMint(apiKeyId) : null;
        try {
          return await this.#accept(apiKeyId, request, idempotencyKey, hash);
        } catch (error) {
          await mint?.giveBack();
          throw error;
        }
      },
    );
  }

  async #accept(
    apiKeyId: string,
    request: WatermarkRequest,
    idempotencyKey: string | undefined,
    hash: string | null,
  ): Promise<WatermarkAccepted> {
    const needsMark = request.options.watermarkType.includes('invisible');
    const job = {
      id: randomUUID(),
      apiKeyId,
      fileId: request.fileId,
      options: request.options,
      idempotencyKey: idempotencyKey ?? null,
      requestHash: hash,
      storageQuotaBytes: this.quotas.storedBytesLimit,
      // Refused before anything is queued: a video or a sound cannot carry the image mark.
      contentTypes: needsMark ? MARKABLE_CONTENT_TYPES : null,
    };
    // The usual case, an uploaded file of this key with room under its storage quota, costs this
    // one statement; only a refused insert reads the usage and the file, to say why.
    if (!(await insertJob(this.prisma.sql, job))) {
      await this.quotas.assertStorageLeft(apiKeyId);
      await assertFileUsable(this.prisma.sql, apiKeyId, request.fileId, 'watermark', needsMark);
      // The file changed in between (its upload completed): try once more.
      if (!(await insertJob(this.prisma.sql, job))) throw notUploaded('watermark');
    }
    await this.queues.enqueue('watermark', job.id);
    return { status: 'pending', requestId: job.id, fileId: job.fileId };
  }

  /**
   * Another key's job is indistinguishable from a missing one. A finished job carries
   * its IPFS record and NFT when it asked for them. Polling is the hot path:
   * an unfinished job costs one query (the records are read only once there can be any).
   */
  async get(apiKeyId: string, requestId: string): Promise<WatermarkJob> {
    const row = await this.jobRows.find(apiKeyId, requestId);
    if (row === null) throw ProblemException.notFound(`No watermark job ${requestId}.`);
    // The options were validated when the job was accepted.
    const wants = requestedRecords(row.options as WatermarkOptions);
    const finished = row.status === 'success';
    const [ipfsRecord, nft] = await Promise.all([
      finished && wants.ipfs
        ? this.prisma.client.ipfsRecord.findUnique({ where: { jobId: row.id } })
        : null,
      finished && wants.nft
        ? this.prisma.client.nft.findUnique({ where: { jobId: row.id } })
        : null,
    ]);
    return toJobView(row, this.storage, this.config.DOWNLOAD_LINK_TTL_SECONDS, {
      ipfs: ipfsRecord === null ? undefined : this.views.ipfsRecord(ipfsRecord),
      nft:
        nft !== null && nft.tokenId !== null && nft.mintedAt !== null
          ? ((await this.views.nft({ ...nft, tokenId: nft.tokenId, mintedAt: nft.mintedAt })) ??
            undefined)
          : undefined,
    });
  }

  async #replay(
    apiKeyId: string,
    idempotencyKey: string,
    hash: string | null,
  ): Promise<WatermarkAccepted | null> {
    const existing = await findJobByIdempotencyKey(this.prisma.sql, apiKeyId, idempotencyKey);
    if (existing === null) return null;
    assertSameRequest(existing.requestHash, hash);
    // The answer to POST /watermark always says `pending`; poll for the real state.
    return { status: 'pending', requestId: existing.id, fileId: existing.fileId };
  }
}
