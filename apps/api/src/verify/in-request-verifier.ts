import { randomUUID } from 'node:crypto';
import { type HallmarkConfig, untilAborted, videoTools } from '@hallmark/config';
import { insertFinishedVerification, type VerificationAsker } from '@hallmark/db';
import { CONFIG, PrismaService, TrustAnchors } from '@hallmark/runtime';
import { verificationsFinished } from '@hallmark/runtime/metrics';
import { PixelPool } from '@hallmark/runtime/pixels';
import { storedResult, verifyImage } from '@hallmark/verification';
import { Inject, Injectable } from '@nestjs/common';
import { imageProblem } from './image-body.ts';
import { inRequestProblem } from './in-request.ts';

/** A verification made in the request, as recorded. */
export interface RecordedVerification {
  readonly id: string;
  readonly result: ReturnType<typeof storedResult>;
}

/**
 * Every verification of an image sent in the request (`POST /verify/file`, `POST /public/verify`,
 * an operator's in the console): examined on this process's pixel threads within a job's time,
 * never stored, recorded finished with who asked. What cannot be read, or not now, is a problem
 * answer (4xx for the image, 503 when every place is taken or time ran out), never a 500.
 */
@Injectable()
export class InRequestVerifier {
  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    private readonly prisma: PrismaService,
    private readonly anchors: TrustAnchors,
    private readonly pixels: PixelPool,
  ) {}

  async verify(
    bytes: Uint8Array,
    asker: VerificationAsker,
    maxPixels: number,
  ): Promise<RecordedVerification> {
    // Within a job's time, as in the worker; the request's own timeout may come first. The whole
    // verification answers within it, the manifest's reading included.
    const signal = AbortSignal.timeout(this.config.JOB_TIMEOUT_MS);
    let result: RecordedVerification['result'];
    try {
      const verification = verifyImage(bytes, this.prisma.sql, {
        ...(await this.anchors.current()),
        maxPixels,
        videoTools: videoTools(this.config),
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
    return { id, result };
  }
}
