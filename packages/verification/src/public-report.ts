import type { PublicVerificationReport, VerificationReport } from '@hallmark/schemas';

/**
 * A report as anyone may see it: the published record loses the ids of the job that issued it,
 * which belong to the key that made the job. The public page, the console's view and every
 * signed report go through here, so what leaves without a key is decided in one place.
 */
export function publicReport(report: VerificationReport): PublicVerificationReport {
  if (report.record === null) return { ...report, record: null };
  const { requestId: _requestId, fileId: _fileId, ...record } = report.record;
  return { ...report, record };
}
