import { type HallmarkConfig } from '@hallmark/config';
import { CONFIG } from '@hallmark/runtime';
import type { AdminVerificationDetail, AdminVerificationPage } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentOperator, type Operator } from '../auth/client.ts';
import { Input, Operation } from '../routing/operation.decorator.ts';
import type { InputOf } from '../routing/operation-input.ts';
import { readFileBody } from '../verify/image-body.ts';
import { ReportService } from '../verify/report.service.ts';
import { asReportDownload } from '../verify/report-download.ts';
import { AdminRoute } from './admin-route.decorator.ts';
import { AdminVerificationsService } from './admin-verifications.service.ts';

/** Every verification, for operators (viewers read); admins verify an image too. */
@AdminRoute()
@Controller()
export class AdminVerificationsController {
  constructor(
    @Inject(CONFIG) private readonly config: HallmarkConfig,
    private readonly verifications: AdminVerificationsService,
    private readonly reports: ReportService,
  ) {}

  /** Newest first. */
  @Operation(ROUTES.listVerifications)
  list(@Input() { query }: InputOf<'listVerifications'>): Promise<AdminVerificationPage> {
    return this.verifications.list(query);
  }

  @Operation(ROUTES.getAdminVerification)
  detail(@Input() { params }: InputOf<'getAdminVerification'>): Promise<AdminVerificationDetail> {
    return this.verifications.detail(params.requestId);
  }

  /** Sent as the signer wrote it, byte for byte: re-serialising would break the signature. */
  @Operation(ROUTES.getAdminVerificationReport)
  async report(
    @Input() { params }: InputOf<'getAdminVerificationReport'>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const text = await this.reports.signedForOperator(params.requestId);
    asReportDownload(reply, params.requestId);
    return text;
  }

  /** The guard has checked the session, its CSRF token and the admin role before the body is read. */
  @Operation(ROUTES.verifyImageAsOperator)
  async verify(
    @CurrentOperator() operator: Operator,
    @Req() request: FastifyRequest,
  ): Promise<AdminVerificationDetail> {
    const bytes = await readFileBody(request.body, this.config.VERIFY_SYNC_MAX_BYTES);
    return this.verifications.verify(bytes, operator.id);
  }
}
