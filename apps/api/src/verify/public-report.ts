import type { PublicVerificationReport, VerificationReport } from '@hallmark/schemas';

/**
 * No key: VerificationViews shows a record's job ids only to the key that made the job, and no
 * key id is empty.
 */
export const NO_KEY = '';

/**
 * The report as anyone may see it. The job's ids are dropped here as well, whatever the view
 * was built for: what leaves through the public page is decided in one place.
 */
export function publicReport(report: VerificationReport): PublicVerificationReport {
  if (report.record === null) return { ...report, record: null };
  const { requestId: _requestId, fileId: _fileId, ...record } = report.record;
  return { ...report, record };
}
