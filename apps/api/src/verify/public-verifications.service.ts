import { randomUUID } from 'node:crypto';
import { type HallmarkConfig, untilAborted } from '@hallmark/config';
import { insertFinishedVerification, type VerificationAsker } from '@hallmark/db';
import { CONFIG, PrismaService, TrustAnchors } from '@hallmark/runtime';
import { verificationsFinished } from '@hallmark/runtime/metrics';
import { PixelPool } from '@hallmark/runtime/pixels';
import type { PublicVerificationReport } from '@hallmark/schemas';
import { storedResult, verifyImage } from '@hallmark/verification';
import { Inject, Injectable } from '@nestjs/common';
import { imageProblem } from './image-body.ts';
import { inRequestProblem } from './in-request.ts';
import { VerificationViews } from './verification-views.ts';

/** A verification without an API key, as recorded. */
export interface UnkeyedVerification {
  readonly id: string;
  readonly verifiedAt: Date;
  readonly report: PublicVerificationReport;
}

/**
 * Verifications asked for without an API key: anyone's on the public verify page, an operator's
 * in the console. The image is examined in the request and never stored; the row records who
 * asked (its origin) and the report, as every verification's does.
 */
@Injectable()
export class UnkeyedVerifications {
  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    private readonly prisma: PrismaService,
    private readonly anchors: TrustAnchors,
    private readonly views: VerificationViews,
    private readonly pixels: PixelPool,
  ) {}

  /** The largest image anyone may have read: the anonymous bound of the Soft Binding API. */
  get publicMaxPixels(): number {
    return Math.min(this.config.MAX_IMAGE_PIXELS, this.config.VERIFY_ANONYMOUS_MAX_PIXELS);
  }

  async verify(
    bytes: Uint8Array,
    asker: Exclude<VerificationAsker, { origin: 'api' }>,
  ): Promise<UnkeyedVerification> {
    const maxPixels =
      asker.origin === 'public' ? this.publicMaxPixels : this.config.MAX_IMAGE_PIXELS;
    // Within a job's time, as POST /verify/file; the request's own timeout may come first.
    const signal = AbortSignal.timeout(this.config.JOB_TIMEOUT_MS);
    let result: ReturnType<typeof storedResult>;
    try {
      const verification = verifyImage(bytes, this.prisma.sql, {
        ...(await this.anchors.current()),
        maxPixels,
        readPixels: this.pixels.reader(signal),
        compareContent: this.pixels.comparer(signal),
      });
      result = storedResult(await untilAborted(verification, signal));
    } catch (error) {
      throw inRequestProblem(error) ?? imageProblem(error) ?? error;
    }
    const id = randomUUID();
    await insertFinishedVerification(this.prisma.sql, id, asker, result);
    verificationsFinished.inc({ origin: asker.origin, verdict: result.verdict });
    return { id, verifiedAt: new Date(), report: await this.views.forAnyone(result.report) };
  }
}
