import { randomUUID } from 'node:crypto';
import {
  type BatchRequestKey,
  findBatchByIdempotencyKey,
  insertBatch,
  insertJob,
} from '@hallmark/db';
import { PrismaService } from '@hallmark/runtime';
import {
  type WatermarkBatch,
  type WatermarkBatchRequest,
  type WatermarkOptions,
} from '@hallmark/schemas';
import { Injectable } from '@nestjs/common';
import { assertFileUsable, notUploaded } from '../files/usable-file.ts';
import { requestHash } from '../idempotency/request-hash.ts';
import { assertSameRequest } from '../idempotency/same-request.ts';
import { withIdempotency } from '../idempotency/with-idempotency.ts';
import { ProblemException } from '../problem/problem.exception.ts';
import { JobQueueProvider } from '../queue/job-queue.provider.ts';
import { type MintSlot, Quotas } from '../quotas/quotas.service.ts';
import { unixSeconds } from '../time/unix-seconds.ts';

/**
 * `POST /watermark/batches`: every item is checked (its file, the quotas) before anything is
 * written, so a refused batch leaves nothing behind; then each item becomes an ordinary job of
 * the batch. Completion (and `batch.completed`) is the workers' business: see completeBatches.
 */
@Injectable()
export class WatermarkBatchesService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly queues: JobQueueProvider,
    private readonly quotas: Quotas,
  ) {}

  /** With an Idempotency-Key, the same request sent again answers the batch it made first. */
  async create(
    apiKeyId: string,
    request: WatermarkBatchRequest,
    idempotencyKey: string | undefined,
  ): Promise<WatermarkBatch> {
    const key = {
      idempotencyKey: idempotencyKey ?? null,
      requestHash: idempotencyKey === undefined ? null : requestHash(request),
    };
    return withIdempotency(
      idempotencyKey,
      () => this.#replay(apiKeyId, idempotencyKey ?? '', key.requestHash),
      () => this.#accept(apiKeyId, request, key),
    );
  }

  async #replay(
    apiKeyId: string,
    idempotencyKey: string,
    hash: string | null,
  ): Promise<WatermarkBatch | null> {
    const existing = await findBatchByIdempotencyKey(this.prisma.sql, apiKeyId, idempotencyKey);
    if (existing === null) return null;
    assertSameRequest(existing.requestHash, hash);
    return this.get(apiKeyId, existing.id);
  }

  async #accept(
    apiKeyId: string,
    request: WatermarkBatchRequest,
    key: BatchRequestKey,
  ): Promise<WatermarkBatch> {
    const items = request.items.map((item) => ({
      fileId: item.fileId,
      options: (item.options ?? request.options) as WatermarkOptions,
    }));
    for (const [index, item] of items.entries()) {
      const needsMark = item.options.watermarkType.includes('invisible');
      await assertFileUsable(this.prisma.sql, apiKeyId, item.fileId, 'watermark', needsMark).catch(
        (error: unknown) => {
          if (error instanceof ProblemException) throw error.forItem(`items[${index}]`);
          throw error;
        },
      );
    }
    await this.quotas.assertStorageLeft(apiKeyId);
    const mints: MintSlot[] = [];
    try {
      for (const item of items) {
        if (item.options.mintNft === true) mints.push(await this.quotas.takeMint(apiKeyId));
      }
      const batchId = randomUUID();
      // One transaction: a worker completing batches (completeBatches) must never see the batch
      // without its jobs, which it would complete at once, empty; a refused job leaves nothing.
      const ids = await this.prisma.transaction(async (sql) => {
        await insertBatch(sql, batchId, apiKeyId, key);
        const inserted: string[] = [];
        for (const [index, item] of items.entries()) {
          const job = {
            id: randomUUID(),
            apiKeyId,
            fileId: item.fileId,
            options: item.options,
            idempotencyKey: null,
            requestHash: null,
            batchId,
            // Each job reserves its file's size as it is written: an item that would take the
            // key past its quota refuses the whole batch, as sending the items one by one would.
            storageQuotaBytes: this.quotas.storedBytesLimit,
          };
          if (!(await insertJob(sql, job))) {
            await this.quotas.assertStorageLeft(apiKeyId, sql).catch((error: unknown) => {
              if (error instanceof ProblemException) throw error.forItem(`items[${index}]`);
              throw error;
            });
            // Its file was checked above; only a file deleted meanwhile is refused here.
            throw notUploaded('watermark');
          }
          inserted.push(job.id);
        }
        return inserted;
      });
      for (const id of ids) await this.queues.enqueue('watermark', id);
      return this.get(apiKeyId, batchId);
    } catch (error) {
      await Promise.all(mints.map((slot) => slot.giveBack()));
      throw error;
    }
  }

  async get(apiKeyId: string, batchId: string): Promise<WatermarkBatch> {
    const batch = await this.prisma.client.watermarkBatch.findFirst({
      where: { id: batchId, apiKeyId },
      include: {
        jobs: {
          select: { id: true, fileId: true, status: true },
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        },
      },
    });
    if (batch === null) throw ProblemException.notFound(`No batch ${batchId}.`);
    const counts = { pending: 0, processing: 0, success: 0, failed: 0 };
    for (const job of batch.jobs) counts[job.status] += 1;
    return {
      batchId: batch.id,
      status: batch.completedAt === null ? 'pending' : 'completed',
      counts,
      items: batch.jobs.map((job) => ({
        requestId: job.id,
        fileId: job.fileId,
        status: job.status,
      })),
      createdAt: unixSeconds(batch.createdAt),
      completedAt: batch.completedAt === null ? null : unixSeconds(batch.completedAt),
    };
  }
}
