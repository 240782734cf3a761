// What a signed report states: the verdict and findings of one verification, bound to the file's
// digest, as anyone may see them: no tenant id.
import {
  REPORT_FORMAT,
  type VerificationReport,
  type VerificationStatement,
} from '@hallmark/schemas';
import { publicReport } from '../public-report.ts';
import type { CheckedFile } from '../verify-image.ts';

export interface StatementInput {
  readonly verificationId: string;
  readonly verifiedAt: Date;
  readonly checkedFile: CheckedFile;
  /** The verification's report as any caller sees it. */
  readonly report: VerificationReport;
  readonly service: VerificationStatement['service'];
  readonly development: boolean;
  readonly now: Date;
}

export function verificationStatement(input: StatementInput): VerificationStatement {
  const report = publicReport(input.report);
  return {
    format: REPORT_FORMAT,
    verificationId: input.verificationId,
    verifiedAt: input.verifiedAt.toISOString(),
    issuedAt: input.now.toISOString(),
    file: { sha256: input.checkedFile.sha256, size: input.checkedFile.size },
    verdict: report.verdict,
    reasons: report.reasons,
    invisible: report.invisible,
    c2pa: report.c2pa,
    content: report.content,
    record: report.record,
    service: input.service,
    reportKey: { development: input.development },
  };
}
