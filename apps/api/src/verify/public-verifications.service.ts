import type { HallmarkConfig } from '@hallmark/config';
import type { VerificationAsker } from '@hallmark/db';
import { CONFIG } from '@hallmark/runtime';
import type { PublicVerificationReport } from '@hallmark/schemas';
import { Inject, Injectable } from '@nestjs/common';
import { InRequestVerifier } from './in-request-verifier.ts';
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
    private readonly views: VerificationViews,
    private readonly verifier: InRequestVerifier,
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
    const { id, result } = await this.verifier.verify(bytes, asker, maxPixels);
    return { id, verifiedAt: new Date(), report: await this.views.forAnyone(result.report) };
  }
}
