import type { ReportKeySet } from '@hallmark/schemas';
import { ROUTES } from '@hallmark/schemas/routes';
import { Controller, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { type Client, CurrentClient } from '../auth/client.ts';
import { Public } from '../auth/public.decorator.ts';
import { Input, Operation } from '../routing/operation.decorator.ts';
import type { InputOf } from '../routing/operation-input.ts';
import { ReportService } from './report.service.ts';

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
    reply
      .header('content-type', 'application/json')
      .header('cache-control', 'private, no-store')
      .header(
        'content-disposition',
        `attachment; filename="hallmark-report-${params.requestId}.json"`,
      );
    return text;
  }

  /** Anyone may fetch the keys: checking a report offline starts here. */
  @Public()
  @Operation(ROUTES.getReportKeys)
  keys(@Res({ passthrough: true }) reply: FastifyReply): ReportKeySet {
    reply.header('cache-control', 'public, max-age=300');
    return this.reports.keys();
  }
}
