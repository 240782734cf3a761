/**
 * The stable problem types of the Hallmark API (RFC 9457 `type`). API and SDK both read this
 * catalogue so a client can branch on `type` instead of parsing messages. Adding an entry is a
 * compatible change; changing a URI, title or status is a breaking one.
 *
 * Plain data with no imports: the SDK generator copies it into the SDK, which must not depend on
 * zod at runtime.
 */
export const PROBLEM_TYPE_BASE = 'https://hallmark.dev/problems/';

export interface ProblemType {
  readonly type: string;
  readonly title: string;
  readonly status: number;
}

export const problemTypes = {
  validationError: {
    type: `${PROBLEM_TYPE_BASE}validation-error`,
    title: 'Request validation failed',
    status: 400,
  },
  unauthorized: {
    type: `${PROBLEM_TYPE_BASE}unauthorized`,
    title: 'Missing or invalid bearer token',
    status: 401,
  },
  invalidSignature: {
    type: `${PROBLEM_TYPE_BASE}invalid-signature`,
    title: 'Invalid or expired link signature',
    status: 403,
  },
  notFound: {
    type: `${PROBLEM_TYPE_BASE}not-found`,
    title: 'Resource not found',
    status: 404,
  },
  fileNotUploaded: {
    type: `${PROBLEM_TYPE_BASE}file-not-uploaded`,
    title: 'File not uploaded yet',
    status: 409,
  },
  uploadAlreadyUsed: {
    type: `${PROBLEM_TYPE_BASE}upload-already-used`,
    title: 'Upload link already used',
    status: 409,
  },
  payloadTooLarge: {
    type: `${PROBLEM_TYPE_BASE}payload-too-large`,
    title: 'Payload too large',
    status: 413,
  },
  unsupportedMediaType: {
    type: `${PROBLEM_TYPE_BASE}unsupported-media-type`,
    title: 'Unsupported media type',
    status: 415,
  },
  idempotencyKeyReused: {
    type: `${PROBLEM_TYPE_BASE}idempotency-key-reused`,
    title: 'Idempotency key reused with a different request',
    status: 422,
  },
  rateLimited: {
    type: `${PROBLEM_TYPE_BASE}rate-limited`,
    title: 'Too many requests',
    status: 429,
  },
  internal: {
    type: `${PROBLEM_TYPE_BASE}internal`,
    title: 'Internal server error',
    status: 500,
  },
  serviceUnavailable: {
    type: `${PROBLEM_TYPE_BASE}service-unavailable`,
    title: 'Service unavailable',
    status: 503,
  },
  // Answered by the HTTP layer before any route runs (see apps/api/src/problem/). Listed after
  // the types above so a status alone still maps to the first, most general type of its status.
  badUrl: {
    type: `${PROBLEM_TYPE_BASE}bad-url`,
    title: 'Malformed request URL',
    status: 400,
  },
  malformedRequest: {
    type: `${PROBLEM_TYPE_BASE}malformed-request`,
    title: 'Malformed HTTP request',
    status: 400,
  },
  requestTimeout: {
    type: `${PROBLEM_TYPE_BASE}request-timeout`,
    title: 'Request not received in time',
    status: 408,
  },
  uriTooLong: {
    type: `${PROBLEM_TYPE_BASE}uri-too-long`,
    title: 'Request URL too long',
    status: 414,
  },
  forbidden: {
    type: `${PROBLEM_TYPE_BASE}forbidden`,
    title: 'Not allowed',
    status: 403,
  },
  alreadyDecided: {
    type: `${PROBLEM_TYPE_BASE}already-decided`,
    title: 'Already decided',
    status: 409,
  },
  keyNotAvailable: {
    type: `${PROBLEM_TYPE_BASE}key-not-available`,
    title: 'No key to collect',
    status: 409,
  },
  imageUnreadable: {
    type: `${PROBLEM_TYPE_BASE}image-unreadable`,
    title: 'Image cannot be read',
    status: 422,
  },
  quotaExceeded: {
    type: `${PROBLEM_TYPE_BASE}quota-exceeded`,
    title: 'Quota of this API key exceeded',
    status: 429,
  },
  reportUnavailable: {
    type: `${PROBLEM_TYPE_BASE}report-unavailable`,
    title: 'No signed report for this verification',
    status: 409,
  },
  fileDeleted: {
    type: `${PROBLEM_TYPE_BASE}file-deleted`,
    title: 'File deleted by retention',
    status: 410,
  },
  outputDeleted: {
    type: `${PROBLEM_TYPE_BASE}output-deleted`,
    title: 'Watermarked file deleted by retention',
    status: 410,
  },
  storageFull: {
    type: `${PROBLEM_TYPE_BASE}storage-full`,
    title: 'Storage full',
    status: 507,
  },
  headerFieldsTooLarge: {
    type: `${PROBLEM_TYPE_BASE}header-fields-too-large`,
    title: 'Request header fields too large',
    status: 431,
  },
  transferUnderWay: {
    type: `${PROBLEM_TYPE_BASE}transfer-under-way`,
    title: 'Token already transferred or being transferred',
    status: 409,
  },
  recordRemoved: {
    type: `${PROBLEM_TYPE_BASE}record-removed`,
    title: 'Record removed',
    status: 410,
  },
  endpointDisabled: {
    type: `${PROBLEM_TYPE_BASE}endpoint-disabled`,
    title: 'Webhook endpoint disabled',
    status: 409,
  },
  lastAdmin: {
    type: `${PROBLEM_TYPE_BASE}last-admin`,
    title: 'The last enabled admin',
    status: 409,
  },
  publicVerifyOff: {
    type: `${PROBLEM_TYPE_BASE}public-verify-off`,
    title: 'Public verification is off',
    status: 404,
  },
  jobNotRetryable: {
    type: `${PROBLEM_TYPE_BASE}job-not-retryable`,
    title: 'This failure cannot be retried',
    status: 409,
  },
  markNotApplicable: {
    type: `${PROBLEM_TYPE_BASE}mark-not-applicable`,
    title: 'This kind of file cannot carry the invisible mark',
    status: 422,
  },
} as const satisfies Record<string, ProblemType>;

export type ProblemTypeName = keyof typeof problemTypes;
export type ProblemTypeUri = (typeof problemTypes)[ProblemTypeName]['type'];
