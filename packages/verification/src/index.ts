// Verification: what a copy of an image says (its pixels' mark, its manifest), which record of
// this deployment that leads to, and the verdict. Used by the API (synchronous verification and
// the reports it serves) and by the worker (verification jobs).

export {
  CONTENT_NOT_COMPARED,
  type ContentComparer,
  compareWithIssued,
  type IssuedPicture,
} from './content.ts';
export {
  c2paFinding,
  type ExamineOptions,
  examineImage,
  examineMediaFile,
  type Findings,
  type PixelReader,
  relateGeometry,
} from './findings.ts';
export { publicReport } from './public-report.ts';
export { reportHtml } from './report/report-html.ts';
export {
  loadReportKey,
  type ReportAlgorithm,
  ReportKeyError,
  type ReportSigningKey,
  reportKeyOf,
} from './report/report-key.ts';
export { reportingService } from './report/reporting-service.ts';
export { reportKeyJwk, serialiseReport, signStatement } from './report/sign-report.ts';
export { type StatementInput, verificationStatement } from './report/statement.ts';
export { TimeStampUnavailableError, timeStampReport } from './report/time-stamp.ts';
export { type DeploymentTrust, deploymentTrust } from './trust-anchors.ts';
export { type Decision, decideVerdict, fingerprintDistanceOf, type Leads } from './verdict.ts';
export {
  type CheckedFile,
  type StoredReport,
  storedResult,
  type VerificationOutcome,
  type VerifyOptions,
  verifyImage,
  verifyMediaFile,
} from './verify-image.ts';
