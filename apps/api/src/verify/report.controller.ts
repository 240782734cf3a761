import type { ReportKeySet } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import type { CrJsonDocument } from '@hallmark/watermark-core';
import { Controller, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { type Client, CurrentClient } from '../auth/client.ts';
import { Public } from '../auth/public.decorator.ts';
import { Input, Operation } from '../routing/operation.decorator.ts';
import type { InputOf } from '../routing/operation-input.ts';
import { ReportService } from './report.service.ts';
import { asReportDownload } from './report-download.ts';

@Controller()
export class ReportController {
  constructor(private readonly reports: ReportService) {}

  /** Sent as the signer wrote it, byte for byte: re-serialising would break the signature. */
  @Operation(ROUTES.getVerificationReport)
  async report(
    @CurrentClient() client: Client,
    @Input() { params }: InputOf<'getVerificationReport'>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const text = await this.reports.signed(client.apiKeyId, params.requestId);
    asReportDownload(reply, params.requestId);
    return text;
  }

  /** A page for people; its scripts and remote content are off, whatever a manifest holds. */
  @Operation(ROUTES.getVerificationReportPage)
  async page(
    @CurrentClient() client: Client,
    @Input() { params }: InputOf<'getVerificationReportPage'>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const html = await this.reports.page(client.apiKeyId, params.requestId);
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'private, no-store')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .header('x-content-type-options', 'nosniff');
    return html;
  }

  @Operation(ROUTES.getVerificationCrJson)
  crJson(
    @CurrentClient() client: Client,
    @Input() { params }: InputOf<'getVerificationCrJson'>,
  ): Promise<CrJsonDocument> {
    return this.reports.crJson(client.apiKeyId, params.requestId);
  }

  /** Anyone may fetch the keys: checking a report offline starts here. */
  @Public()
  @Operation(ROUTES.getReportKeys)
  keys(@Res({ passthrough: true }) reply: FastifyReply): ReportKeySet {
    reply.header('cache-control', 'public, max-age=300');
    return this.reports.keys();
  }
}
