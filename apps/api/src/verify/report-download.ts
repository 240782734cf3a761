import type { FastifyReply } from 'fastify';

/**
 * Headers of a signed report's answer: a download named after its verification, never cached by
 * anyone in between. The body is the signer's text, byte for byte.
 */
export function asReportDownload(reply: FastifyReply, requestId: string): void {
  reply
    .header('content-type', 'application/json')
    .header('cache-control', 'private, no-store')
    .header('content-disposition', `attachment; filename="hallmark-report-${requestId}.json"`);
}
