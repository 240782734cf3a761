// The API contract. Runtime validation (API requests, worker payloads) and types come from here;
// the OpenAPI document lives behind the `./openapi` entry point so that importing schemas does
// not load the document generator.

import type { MediaType as MediaTypeRow } from './media-format.ts';
import { MediaType as MediaTypeSchema } from './upload-link.ts';

export { AccessToken } from './access-token.ts';
export {
  AdminApiKey,
  AdminApiKeyCreate,
  AdminApiKeyPage,
  AdminIpfsRecord,
  AdminIpfsRecordPage,
  AdminJob,
  AdminJobDetail,
  AdminJobPage,
  AdminJobQuery,
  AdminKeyRequest,
  AdminKeyRequestPage,
  AdminNft,
  AdminNftPage,
  AdminOperator,
  AdminOperatorChange,
  AdminOperatorList,
  AdminOverview,
  AdminRateLimit,
  AdminRejection,
  AdminSession,
  AdminSignIn,
  AdminWallet,
  AdminWebhookEndpoint,
  AdminWebhookEndpointPage,
  ApiKeyPrefixParams,
  AuditEntryView,
  AuditPage,
  AuditQuery,
  OperatorIdParams,
  OperatorRole,
} from './admin.ts';
export {
  ActivityRange,
  AdminActivity,
  AdminActivityHour,
  AdminActivityQuery,
  AdminKeyUsage,
} from './admin-activity.ts';
export {
  AdminVerification,
  AdminVerificationDetail,
  AdminVerificationPage,
  AdminVerificationQuery,
  VerificationOrigin,
} from './admin-verification.ts';
export { CalendarDate } from './common/calendar-date.ts';
export { HttpUrl } from './common/http-url.ts';
export { UnixSeconds } from './common/unix-seconds.ts';
export {
  DependencyCheck,
  DependencyStatus,
  Health,
  Readiness,
} from './health.ts';
export {
  IMAGE_FORMATS,
  type ImageFormatName,
  mimeTypeOf,
  type SniffedFormat,
  sniffImageFormat,
} from './image-format.ts';
export { Cid, IpfsMetadata, IpfsRecord, IpfsRecordPage } from './ipfs-record.ts';
export {
  isRetryableJobError,
  JOB_ERROR_CODES,
  type JobErrorCode,
  type JobErrorRetry,
  jobErrorRetry,
} from './job-error-codes.ts';
export {
  KeyRequestAccepted,
  KeyRequestCreate,
  KeyRequestKey,
  KeyRequestState,
  KeyRequestStatus,
  KeyRequestTokenQuery,
} from './key-request.ts';
export {
  MEDIA_TYPES,
  type MediaFormatName,
  type MediaKind,
  mediaTypeFor,
  mediaTypeOf,
} from './media-format.ts';
export { id3TagLength, SNIFF_BYTES, type SniffedMedia, sniffMediaFormat } from './media-sniff.ts';
export {
  Nft,
  NftAttribute,
  NftImageUri,
  NftMetadata,
  NftPage,
  NftTransfer,
  NftTransferRequest,
  TokenId,
} from './nft.ts';
export { PageQuery, pageQueryFields } from './page-query.ts';
export { IpfsHashParams, RequestIdParams, TokenIdParams, TransferIdParams } from './path-params.ts';
export { plainIssueMessage } from './plain-messages.ts';
export { FieldError, Problem, QuotaName } from './problem.ts';
export {
  PROBLEM_TYPE_BASE,
  type ProblemType,
  type ProblemTypeName,
  type ProblemTypeUri,
  problemTypes,
} from './problem-types.ts';
export {
  PublicRecord,
  PublicVerification,
  PublicVerificationReport,
  PublicVerifySettings,
} from './public-verification.ts';
export { QUEUES, type QueueName } from './queues.ts';
export {
  CrJson,
  REPORT_FORMAT,
  REPORT_JWS_TYPE,
  ReportKey,
  ReportKeySet,
  SignedVerificationReport,
  VerificationStatement,
} from './signed-report.ts';
export { FileName, UploadLink, UploadLinkRequest } from './upload-link.ts';

// `MediaType` names two things that predate each other's export: the zod schema of a
// `type/subtype` string (a value, upload-link.ts) and a row of the media table (a type,
// media-format.ts). One binding carries both, so neither import breaks.
export const MediaType = MediaTypeSchema;
export type MediaType = MediaTypeRow;
export { formatPath, toFieldErrors } from './validation-errors.ts';
export {
  C2paFinding,
  CONTENT_STATES,
  ContentFinding,
  ContentRegion,
  FingerprintFinding,
  InvisibleFinding,
  ManifestIngredient,
  ManifestSigner,
  MarkGeometryFinding,
  PublishedRecord,
  VERDICTS,
  Verdict,
  VerificationAccepted,
  VerificationJob,
  VerificationReason,
  VerificationReport,
  VerifyRequest,
} from './verification.ts';
export {
  BatchIdParams,
  MAX_BATCH_ITEMS,
  WatermarkBatch,
  WatermarkBatchRequest,
} from './watermark-batch.ts';
export {
  WatermarkAccepted,
  WatermarkJob,
  WatermarkJobError,
  WatermarkJobStatus,
} from './watermark-job.ts';
export {
  type TraceContext,
  traceContextSchema,
  type VerifyJobPayload,
  verifyJobPayloadSchema,
  type WatermarkJobPayload,
  watermarkJobPayloadSchema,
} from './watermark-job-payload.ts';
export {
  IdempotencyKey,
  requestedRecords,
  WatermarkMetadata,
  WatermarkOptions,
  WatermarkRequest,
  WatermarkType,
  WatermarkTypes,
} from './watermark-request.ts';
export {
  DeliveryParams,
  EndpointIdParams,
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookDeliveryState,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointPage,
  WebhookEventType,
  WebhookPayload,
} from './webhook.ts';
