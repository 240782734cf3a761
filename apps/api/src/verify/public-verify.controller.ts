import { type HallmarkConfig } from '@hallmark/config';
import { CONFIG } from '@hallmark/runtime';
import {
  type PublicVerification,
  type PublicVerifySettings,
  problemTypes,
} from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller, Inject, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Public } from '../auth/public.decorator.ts';
import { ProblemException } from '../problem/problem.exception.ts';
import { Operation } from '../routing/operation.decorator.ts';
import { unixSeconds } from '../time/unix-seconds.ts';
import { readFileBody } from './image-body.ts';
import { UnkeyedVerifications } from './public-verifications.service.ts';
import { ReportService } from './report.service.ts';

/**
 * The public verify page's API: anyone may verify an image when the deployment says so
 * (PUBLIC_VERIFY), counted per address like every public route (the Soft Binding API's limit).
 */
@Public()
@Controller()
export class PublicVerifyController {
  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    private readonly verifications: UnkeyedVerifications,
    private readonly reports: ReportService,
  ) {}

  @Operation(ROUTES.getPublicVerifySettings)
  settings(): PublicVerifySettings {
    return {
      enabled: this.config.PUBLIC_VERIFY,
      maxBytes: this.config.VERIFY_SYNC_MAX_BYTES,
      maxPixels: this.verifications.publicMaxPixels,
    };
  }

  @Operation(ROUTES.verifyImagePublicly)
  async verify(@Req() request: FastifyRequest): Promise<PublicVerification> {
    if (!this.config.PUBLIC_VERIFY) {
      throw new ProblemException(
        problemTypes.publicVerifyOff,
        'This deployment does not verify images without an API key; use POST /verify/file with a key.',
      );
    }
    const bytes = await readFileBody(request.body, this.config.VERIFY_SYNC_MAX_BYTES);
    const { id, verifiedAt, report } = await this.verifications.verify(bytes, {
      origin: 'public',
    });
    const signedReport = await this.reports.signedIfStamped(id);
    return { verifiedAt: unixSeconds(verifiedAt), report, signedReport };
  }
}
