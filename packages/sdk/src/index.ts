// Public entry point of @hallmark/sdk. Runs wherever a global `fetch` exists (Node 20+,
// browsers, Deno, Bun); it imports nothing but its own files (and `node:fs/promises`, lazily,
// only when given a file path).
export { downloadFile } from './download.ts';
export {
  HallmarkApiError,
  isProblem,
  UnknownContentTypeError,
  VerificationFailedError,
  WaitTimeoutError,
  WatermarkJobFailedError,
} from './errors.ts';
export type { FetchFunction } from './fetch-function.ts';
// HallmarkClient and the options type of each operation that takes headers.
export * from './generated/client.ts';
// Types of every schema (`WatermarkRequest`, `WatermarkJob`, `Problem`, …) and the raw
// `paths` / `components` / `operations` maps for advanced use.
export type * from './generated/openapi.ts';
export {
  type ProblemTypeName,
  type ProblemTypeUri,
  problemTypes,
} from './generated/problem-types.ts';
export type { HallmarkClientOptions, RequestOptions, TokenSource } from './http.ts';
export { contentTypeOfName, KNOWN_EXTENSIONS, type WatermarkInput } from './input.ts';
export {
  type CheckedReport,
  type CheckReportOptions,
  checkReport,
  REPORT_FORMAT,
  ReportCheckError,
  type ReportProblem,
  type VerificationStatement,
} from './report/check-report.ts';
export type { RetryOptions } from './retry.ts';
export type { SignedLinkOptions } from './signed-link.ts';
export { type FileBytes, uploadFile } from './upload.ts';
export {
  type VerificationReport,
  type VerifiedFile,
  type VerifyFileOptions,
  verifyFile,
} from './verify-file.ts';
export { type VerifyImageHints, verifyImage } from './verify-image.ts';
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookHeaders,
  WebhookVerificationError,
} from './verify-webhook.ts';
export { type JobProcessingEvent, type WaitForJobOptions, waitForJob } from './wait-for-job.ts';
export {
  type WatermarkedFile,
  type WatermarkFileOptions,
  type WatermarkProgress,
  watermarkFile,
} from './watermark-file.ts';
export {
  type WatermarkedFiles,
  type WatermarkedItem,
  type WatermarkFilesOptions,
  type WatermarkFilesProgress,
  watermarkFiles,
} from './watermark-files.ts';
