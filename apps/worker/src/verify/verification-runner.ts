import { join } from 'node:path';
import { type HallmarkConfig, type Logger, videoTools } from '@hallmark/config';
import { failVerification, finishVerification, startVerification } from '@hallmark/db';
import { CONFIG, LOGGER, OBJECT_STORAGE, PrismaService, TrustAnchors } from '@hallmark/runtime';
import { verificationsFinished } from '@hallmark/runtime/metrics';
import { PixelPool } from '@hallmark/runtime/pixels';
import { JOB_ERROR_CODES, type JobErrorCode } from '@hallmark/schemas';
import type { ObjectStorage } from '@hallmark/storage';
import {
  storedResult,
  type VerificationOutcome as Verified,
  verifyImage,
  verifyMediaFile,
} from '@hallmark/verification';
import { Inject, Injectable } from '@nestjs/common';
import { countRun } from '../metrics/job-runs.ts';
import { inScratchFolder, scratchRoot } from '../scratch-folder.ts';
import { isTimeBasedMedia } from '../watermark/media-through-files.ts';

/** Codes of images the engines refuse: no retry reads them better. */
const IMAGE_CODES: ReadonlySet<string> = new Set([
  'invalid_image',
  'unsupported_format',
  'too_many_pixels',
]);

export type VerificationOutcome = 'success' | 'failed' | 'skipped';

/**
 * One run of one verification: read the uploaded file, examine it, follow its marks to this
 * deployment's records, store the report. A run has no effect outside its row, so a second run
 * of the same verification is harmless; a finished row never changes again.
 */
@Injectable()
export class VerificationRunner {
  /** Where a video or a recording is read. */
  readonly #scratch: string;

  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly prisma: PrismaService,
    private readonly pixels: PixelPool,
    private readonly anchors: TrustAnchors,
  ) {
    this.#scratch = scratchRoot(config);
  }

  async run(requestId: string, lastAttempt: boolean): Promise<VerificationOutcome> {
    const startedAt = performance.now();
    const started = await startVerification(this.prisma.sql, requestId);
    if (started === null) {
      countRun('verify', startedAt, 'skipped');
      return 'skipped';
    }
    try {
      const outcome = isTimeBasedMedia(started.contentType)
        ? await this.#verifyMedia(started.storageKey)
        : await this.#verifyImage(started.storageKey);
      await finishVerification(this.prisma.sql, requestId, storedResult(outcome));
      this.logger.info({ requestId, verdict: outcome.decision.verdict }, 'verification done');
      countRun('verify', startedAt, 'success');
      verificationsFinished.inc({ origin: 'job', verdict: outcome.decision.verdict });
      return 'success';
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      this.logger.warn(
        { requestId, err: (error as Error).message, lastAttempt },
        'verification attempt failed',
      );
      if (typeof code === 'string' && IMAGE_CODES.has(code)) {
        return this.#fail(requestId, code as JobErrorCode, startedAt);
      }
      if (lastAttempt) return this.#fail(requestId, 'internal_error', startedAt);
      countRun('verify', startedAt, 'retried');
      throw error;
    }
  }

  async #verifyImage(storageKey: string): Promise<Verified> {
    const bytes = await this.storage.read(storageKey);
    // The detector runs on a pixel thread, within the job's time like a mark's embedding.
    const signal = AbortSignal.timeout(this.config.JOB_TIMEOUT_MS);
    return verifyImage(bytes, this.prisma.sql, {
      ...(await this.anchors.current()),
      maxPixels: this.config.MAX_IMAGE_PIXELS,
      videoTools: videoTools(this.config),
      readPixels: this.pixels.reader(signal),
      compareContent: this.pixels.comparer(signal),
    });
  }

  /** A video or a recording is read through a scratch file, never held whole. */
  async #verifyMedia(storageKey: string): Promise<Verified> {
    return inScratchFolder(this.#scratch, async (folder) => {
      const path = join(folder, 'input');
      await this.storage.readToFile(storageKey, path);
      return verifyMediaFile(path, this.prisma.sql, {
        ...(await this.anchors.current()),
        maxPixels: this.config.MAX_IMAGE_PIXELS,
        videoTools: videoTools(this.config),
      });
    });
  }

  async #fail(
    requestId: string,
    code: JobErrorCode,
    startedAt: number,
  ): Promise<VerificationOutcome> {
    await failVerification(this.prisma.sql, requestId, code, JOB_ERROR_CODES[code]);
    countRun('verify', startedAt, 'failed', code);
    return 'failed';
  }
}
