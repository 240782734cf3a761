import { randomUUID } from 'node:crypto';
import { type HallmarkConfig } from '@hallmark/config';
import {
  findOwnedFile,
  findVerification,
  findVerificationByIdempotencyKey,
  insertVerification,
} from '@hallmark/db';
import { CONFIG, OBJECT_STORAGE, PrismaService } from '@hallmark/runtime';
import { PixelPool } from '@hallmark/runtime/pixels';
import {
  mediaTypeOf,
  problemTypes,
  type VerificationAccepted,
  type VerificationJob,
  type VerifyRequest,
} from '@hallmark/schemas';
import type { ObjectStorage } from '@hallmark/storage';
import { type StoredReport } from '@hallmark/verification';
import { detectC2paFormat, drawRegions, payloadToHex } from '@hallmark/watermark-core';
import { Inject, Injectable } from '@nestjs/common';
import { assertFileUsable, notUploaded } from '../files/usable-file.ts';
import { requestHash } from '../idempotency/request-hash.ts';
import { assertSameRequest } from '../idempotency/same-request.ts';
import { withIdempotency } from '../idempotency/with-idempotency.ts';
import { ProblemException } from '../problem/problem.exception.ts';
import { JobQueueProvider } from '../queue/job-queue.provider.ts';
import { imageProblem } from './image-body.ts';
import { inRequestProblem } from './in-request.ts';
import { InRequestVerifier } from './in-request-verifier.ts';
import { VerificationViews } from './verification-views.ts';

/**
 * Verification as a job, like watermarking: a job for an uploaded file (`POST /verify`, then poll), or
 * at once for an image sent in the request (`POST /verify/file`). Both are recorded.
 */
@Injectable()
export class VerifyService {
  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    private readonly prisma: PrismaService,
    private readonly queues: JobQueueProvider,
    private readonly views: VerificationViews,
    private readonly pixels: PixelPool,
    private readonly verifier: InRequestVerifier,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
  ) {}

  async verifyNow(apiKeyId: string, bytes: Uint8Array): Promise<VerificationJob> {
    const { id, result } = await this.verifier.verify(
      bytes,
      { origin: 'api', apiKeyId },
      this.config.MAX_IMAGE_PIXELS,
    );
    return {
      status: 'success',
      requestId: id,
      fileId: null,
      result: await this.views.report(result.report, apiKeyId),
    };
  }

  /**
   * The invisible mark alone, for `POST /matches/byContent`: its manifest, fingerprint and content
   * are not needed, so they are not parsed (less work, and less of a crafted file is read).
   * Without an API key (SOFT_BINDING_API_PUBLIC) it reads smaller images only.
   */
  async readMark(bytes: Uint8Array): Promise<{ payload: string | null; confidence: number }> {
    const anonymous = this.config.SOFT_BINDING_API_PUBLIC;
    const maxPixels = anonymous
      ? Math.min(this.config.MAX_IMAGE_PIXELS, this.config.VERIFY_ANONYMOUS_MAX_PIXELS)
      : this.config.MAX_IMAGE_PIXELS;
    try {
      // What is not a supported image is refused as a verification refuses it.
      detectC2paFormat(bytes);
      const signal = AbortSignal.timeout(this.config.JOB_TIMEOUT_MS);
      const { detection } = await this.pixels.reader(signal)(bytes, maxPixels);
      return {
        payload: detection?.payload == null ? null : payloadToHex(detection.payload),
        confidence: detection?.confidence ?? 0,
      };
    } catch (error) {
      if (anonymous && (error as { code?: unknown }).code === 'too_many_pixels') {
        throw new ProblemException(
          problemTypes.imageUnreadable,
          `Images looked up without an API key may have at most ${maxPixels} pixels; the mark survives downscaling, so send a smaller copy.`,
        );
      }
      throw inRequestProblem(error) ?? imageProblem(error) ?? error;
    }
  }

  async create(
    apiKeyId: string,
    request: VerifyRequest,
    idempotencyKey: string | undefined,
  ): Promise<VerificationAccepted> {
    const hash = idempotencyKey === undefined ? null : requestHash(request);
    return withIdempotency(
      idempotencyKey,
      () => this.#replay(apiKeyId, idempotencyKey ?? '', hash),
      () => this.#accept(apiKeyId, request, idempotencyKey, hash),
    );
  }

  async #accept(
    apiKeyId: string,
    request: VerifyRequest,
    idempotencyKey: string | undefined,
    hash: string | null,
  ): Promise<VerificationAccepted> {
    const verification = {
      id: randomUUID(),
      apiKeyId,
      fileId: request.fileId,
      idempotencyKey: idempotencyKey ?? null,
      requestHash: hash,
    };
    if (!(await insertVerification(this.prisma.sql, verification))) {
      await assertFileUsable(this.prisma.sql, apiKeyId, request.fileId, 'verify');
      throw notUploaded('verify');
    }
    await this.queues.enqueue('verify', verification.id);
    return { status: 'pending', requestId: verification.id, fileId: request.fileId };
  }

  /**
   * The verified file with its report's edited regions outlined: only a file uploaded for
   * `POST /verify` is kept to draw on (an image sent to `POST /verify/file` never is).
   */
  async regionsPicture(apiKeyId: string, requestId: string): Promise<Uint8Array> {
    const row = await findVerification(this.prisma.sql, requestId, apiKeyId);
    if (row === null) throw ProblemException.notFound(`No verification ${requestId}.`);
    if (row.status !== 'success' || row.report === null) {
      throw ProblemException.notFound(
        `Verification ${requestId} is ${row.status}: its regions are drawn once it succeeds.`,
      );
    }
    if (row.fileId === null) {
      throw ProblemException.notFound(
        `Verification ${requestId} verified an image sent in the request, which is not kept: draw its regions from result.content.regions (hallmark verify --regions out.png).`,
      );
    }
    const file = await findOwnedFile(this.prisma.sql, row.fileId, apiKeyId);
    if (file === null || file.deletedAt !== null) {
      throw new ProblemException(
        problemTypes.fileDeleted,
        `The file of verification ${requestId} was deleted by retention.`,
      );
    }
    const kind = mediaTypeOf(file.contentType);
    if (kind !== undefined && (kind.kind !== 'image' || !kind.markable)) {
      throw ProblemException.notFound(
        `Verification ${requestId} verified a ${kind.kind} (${kind.mimeType}), judged by its manifest alone: there is no picture to outline.`,
      );
    }
    const regions = (row.report as StoredReport).content?.regions ?? [];
    return drawRegions(
      await this.storage.read(file.storageKey),
      regions,
      this.config.MAX_IMAGE_PIXELS,
    );
  }

  async get(apiKeyId: string, requestId: string): Promise<VerificationJob> {
    const row = await findVerification(this.prisma.sql, requestId, apiKeyId);
    if (row === null) throw ProblemException.notFound(`No verification ${requestId}.`);
    return this.views.job(row, apiKeyId);
  }

  async #replay(
    apiKeyId: string,
    idempotencyKey: string,
    hash: string | null,
  ): Promise<VerificationAccepted | null> {
    const existing = await findVerificationByIdempotencyKey(
      this.prisma.sql,
      apiKeyId,
      idempotencyKey,
    );
    if (existing === null || existing.fileId === null) return null;
    assertSameRequest(existing.requestHash, hash);
    return { status: 'pending', requestId: existing.id, fileId: existing.fileId };
  }
}
