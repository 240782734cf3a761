import { z } from 'zod';
import { UnixSeconds } from './common/unix-seconds.ts';
import { KeyRequestState } from './key-request.ts';
import { pageQueryFields } from './page-query.ts';
import { WatermarkJobStatus } from './watermark-job.ts';
import { WebhookEventType } from './webhook.ts';

export const OperatorRole = z.enum(['admin', 'viewer']);

export const AdminSignIn = z
  .strictObject({ email: z.email().max(320), password: z.string().min(1).max(1000) })
  .meta({ id: 'AdminSignIn' });
export type AdminSignIn = z.infer<typeof AdminSignIn>;

export const AdminSession = z
  .strictObject({
    email: z.string(),
    role: OperatorRole,
    csrfToken: z.string().meta({
      description: 'Send it as `X-CSRF-Token` with every change made in this session.',
    }),
  })
  .meta({ id: 'AdminSession', description: 'The signed-in operator.' });
export type AdminSession = z.infer<typeof AdminSession>;

export const AdminOperator = z
  .strictObject({
    operatorId: z.uuid(),
    email: z.string(),
    role: OperatorRole,
    disabledAt: UnixSeconds.nullable().meta({
      description: 'When an admin disabled the account: it cannot sign in; null: enabled.',
    }),
    lockedUntil: UnixSeconds.nullable().meta({
      description: 'Until when failed sign-ins lock the account (a password reset lifts it).',
    }),
    activeSessions: z.int().min(0),
    createdAt: UnixSeconds,
    password: z.string().optional().meta({
      description:
        'Only in the answer of a password reset: the new password, shown this once (only its scrypt hash is stored).',
    }),
  })
  .meta({ id: 'AdminOperator' });
export type AdminOperator = z.infer<typeof AdminOperator>;

export const AdminOperatorList = z
  .strictObject({ items: z.array(AdminOperator) })
  .meta({ id: 'AdminOperatorList' });

export const AdminOperatorChange = z
  .strictObject({
    role: OperatorRole.optional(),
    disabled: z.boolean().optional().meta({
      description: 'true: the operator cannot sign in and their sessions end now; false: enabled.',
    }),
  })
  .refine((change) => change.role !== undefined || change.disabled !== undefined, {
    message: 'Give role, disabled or both',
  })
  .meta({ id: 'AdminOperatorChange' });
export type AdminOperatorChange = z.infer<typeof AdminOperatorChange>;

export const OperatorIdParams = z.strictObject({ operatorId: z.uuid() });

/** A key is named by its prefix, the part of it that is not secret. */
export const ApiKeyPrefixParams = z.object({
  prefix: z
    .string()
    .regex(/^hm_[a-z2-7]{8}$/, 'Expected a key prefix hm_xxxxxxxx')
    .meta({ description: 'The key prefix, `hm_xxxxxxxx`.' }),
});

export const AdminKeyRequest = z
  .strictObject({
    requestId: z.uuid(),
    status: KeyRequestState,
    companyName: z.string(),
    purpose: z.string(),
    contactName: z.string(),
    contactEmail: z.string(),
    website: z.string().nullable(),
    expectedVolume: z.string().nullable(),
    submittedAt: UnixSeconds,
    dueAt: UnixSeconds,
    overdue: z.boolean().meta({ description: 'Pending past its due date.' }),
    decidedAt: UnixSeconds.nullable(),
    decidedBy: z.string().nullable(),
    reason: z.string().nullable(),
    keyCollected: z.boolean().meta({
      description:
        'The requester has collected the key (approval makes it; until collected it is listed with `awaitingCollection`).',
    }),
  })
  .meta({ id: 'AdminKeyRequest' });
export type AdminKeyRequest = z.infer<typeof AdminKeyRequest>;

export const AdminKeyRequestPage = z
  .strictObject({
    items: z.array(AdminKeyRequest),
    nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page.' }),
  })
  .meta({ id: 'AdminKeyRequestPage' });
export type AdminKeyRequestPage = z.infer<typeof AdminKeyRequestPage>;

export const AdminRejection = z
  .strictObject({ reason: z.string().trim().min(1).max(2000) })
  .meta({ id: 'AdminRejection' });

export const AuditEntryView = z
  .strictObject({
    id: z.string(),
    operator: z.string().meta({
      description:
        "Who acted: the operator's email, `cli:<user>` for the CLI on the server, or `anonymous` for a failed sign-in.",
    }),
    action: z.string(),
    target: z.string(),
    details: z.record(z.string(), z.unknown()),
    address: z.string(),
    at: UnixSeconds,
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntryView = z.infer<typeof AuditEntryView>;

export const AuditPage = z
  .strictObject({ items: z.array(AuditEntryView), nextCursor: z.string().nullable() })
  .meta({ id: 'AuditPage' });
export type AuditPage = z.infer<typeof AuditPage>;

export const AdminApiKey = z
  .strictObject({
    prefix: z.string(),
    name: z.string(),
    createdAt: UnixSeconds,
    lastUsedAt: UnixSeconds.nullable(),
    revokedAt: UnixSeconds.nullable(),
    walletAddress: z.string().nullable(),
    rateLimitPerMinute: z
      .int()
      .nullable()
      .meta({ description: "The key's own requests per minute; null: the deployment's." }),
    awaitingCollection: z.boolean().meta({
      description:
        'Made by approving a key request and not yet collected by its requester (`POST /admin/api-keys/{prefix}/reissue` replaces it).',
    }),
    apiKey: z
      .string()
      .optional()
      .meta({ description: 'The key itself: in the answer that created it only.' }),
  })
  .meta({ id: 'AdminApiKey' });
export type AdminApiKey = z.infer<typeof AdminApiKey>;

export const AdminApiKeyPage = z
  .strictObject({ items: z.array(AdminApiKey), nextCursor: z.string().nullable() })
  .meta({ id: 'AdminApiKeyPage' });
export type AdminApiKeyPage = z.infer<typeof AdminApiKeyPage>;

export const AdminApiKeyCreate = z
  .strictObject({ name: z.string().trim().min(1).max(200) })
  .meta({ id: 'AdminApiKeyCreate' });

export const AdminWallet = z
  .strictObject({
    walletAddress: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, 'Expected a 0x-prefixed 20-byte address')
      .nullable()
      .meta({ description: "Where the key's NFTs are minted to; null: the custody wallet." }),
  })
  .meta({ id: 'AdminWallet' });

export const AdminJob = z
  .strictObject({
    requestId: z.uuid(),
    status: WatermarkJobStatus,
    keyPrefix: z.string(),
    fileId: z.uuid(),
    watermarkTypes: z.array(z.string()),
    mintNft: z.boolean(),
    storeIpfs: z.boolean(),
    createdAt: UnixSeconds,
    finishedAt: UnixSeconds.nullable(),
    attempts: z.int(),
    errorCode: z.string().nullable(),
    retryable: z.boolean().meta({
      description:
        'Failed with a code that running the job again may get past (`POST /admin/jobs/{requestId}/retry` takes it); false for any other job.',
    }),
  })
  .meta({ id: 'AdminJob' });
export type AdminJob = z.infer<typeof AdminJob>;

export const AdminJobPage = z
  .strictObject({ items: z.array(AdminJob), nextCursor: z.string().nullable() })
  .meta({ id: 'AdminJobPage' });
export type AdminJobPage = z.infer<typeof AdminJobPage>;

export const AdminJobDetail = z
  .strictObject({
    ...AdminJob.shape,
    options: z.record(z.string(), z.unknown()),
    steps: z.array(z.record(z.string(), z.unknown())),
    errorMessage: z.string().nullable(),
    contentType: z.string().meta({
      description: 'Media type of the upload (and of the output, which keeps its format).',
    }),
    inputUrl: z
      .string()
      .nullable()
      .meta({ description: 'A short-lived link to the uploaded file (the "before").' }),
    outputUrl: z
      .string()
      .nullable()
      .meta({ description: 'A short-lived link to the watermarked file (the "after").' }),
  })
  .meta({ id: 'AdminJobDetail' });
export type AdminJobDetail = z.infer<typeof AdminJobDetail>;

export const AdminOverview = z
  .strictObject({
    ready: z.boolean(),
    checks: z.record(z.string(), z.enum(['up', 'down'])),
    queue: z
      .strictObject({
        waiting: z.int(),
        active: z.int(),
        delayed: z.int(),
      })
      .nullable()
      .meta({ description: 'Null while Redis cannot be reached.' }),
    jobsLast24h: z.strictObject({
      pending: z.int(),
      processing: z.int(),
      success: z.int(),
      failed: z.int(),
    }),
    failuresLast24h: z.array(z.strictObject({ code: z.string(), count: z.int() })),
    pendingKeyRequests: z.int().meta({ description: 'Key requests waiting for a decision.' }),
    overdueKeyRequests: z
      .int()
      .meta({ description: 'Of those, the ones pending past their due date.' }),
  })
  .meta({ id: 'AdminOverview' });
export type AdminOverview = z.infer<typeof AdminOverview>;

export const AdminRateLimit = z
  .strictObject({
    rateLimitPerMinute: z
      .int()
      .min(1)
      .max(1_000_000)
      .nullable()
      .meta({ description: 'Requests per minute for this key; null: RATE_LIMIT_PER_MINUTE.' }),
  })
  .meta({ id: 'AdminRateLimit' });

export const AdminNft = z
  .strictObject({
    tokenId: z.string(),
    network: z.string(),
    contract: z.string(),
    owner: z.string().meta({ description: 'As last read from the chain (see `ownerAsOf`).' }),
    ownerAsOf: UnixSeconds,
    txHash: z.string().nullable(),
    marketplaceUrl: z.string().nullable().meta({
      description:
        "The token's page on the marketplace (NFT_MARKETPLACE_URL_TEMPLATE); without one, its image file on the IPFS gateway (`<gateway>/ipfs/<imageCid>/<file name>`). Null without a template for a token minted before its metadata was kept.",
    }),
    imageCid: z.string(),
    metadataCid: z.string(),
    mintedAt: UnixSeconds,
    requestId: z.uuid(),
    keyPrefix: z.string(),
  })
  .meta({ id: 'AdminNft' });
export type AdminNft = z.infer<typeof AdminNft>;

export const AdminNftPage = z
  .strictObject({ items: z.array(AdminNft), nextCursor: z.string().nullable() })
  .meta({ id: 'AdminNftPage' });
export type AdminNftPage = z.infer<typeof AdminNftPage>;

export const AdminIpfsRecord = z
  .strictObject({
    cid: z.string(),
    gatewayUrl: z.string(),
    metadata: z.record(z.string(), z.unknown()),
    storedAt: UnixSeconds,
    requestId: z.uuid(),
    keyPrefix: z.string(),
  })
  .meta({ id: 'AdminIpfsRecord' });
export type AdminIpfsRecord = z.infer<typeof AdminIpfsRecord>;

export const AdminIpfsRecordPage = z
  .strictObject({ items: z.array(AdminIpfsRecord), nextCursor: z.string().nullable() })
  .meta({ id: 'AdminIpfsRecordPage' });
export type AdminIpfsRecordPage = z.infer<typeof AdminIpfsRecordPage>;

export const AdminWebhookEndpoint = z
  .strictObject({
    id: z.uuid(),
    url: z.string(),
    keyPrefix: z.string(),
    events: z.array(WebhookEventType),
    createdAt: UnixSeconds,
    disabledAt: UnixSeconds.nullable(),
    disabledReason: z.string().nullable(),
    deliveries: z
      .strictObject({ pending: z.int(), succeeded: z.int(), failed: z.int() })
      .meta({ description: 'Deliveries to it so far, by status.' }),
  })
  .meta({ id: 'AdminWebhookEndpoint' });
export type AdminWebhookEndpoint = z.infer<typeof AdminWebhookEndpoint>;

export const AdminWebhookEndpointPage = z
  .strictObject({ items: z.array(AdminWebhookEndpoint), nextCursor: z.string().nullable() })
  .meta({ id: 'AdminWebhookEndpointPage' });
export type AdminWebhookEndpointPage = z.infer<typeof AdminWebhookEndpointPage>;

/** The end of year 9999: times beyond it are no date PostgreSQL (or a Date) holds. */
const LATEST_SECONDS = 253_402_300_799;

/** `GET /admin/jobs`: filters, then the page. */
export const AdminJobQuery = z.object({
  status: WatermarkJobStatus.optional(),
  key: z
    .string()
    .regex(/^hm_[a-z2-7]{8}$/)
    .optional()
    .meta({ description: 'A key prefix, `hm_xxxxxxxx`.' }),
  technique: z.enum(['invisible', 'c2pa']).optional(),
  from: z.coerce
    .number()
    .int()
    .nonnegative()
    .max(LATEST_SECONDS)
    .optional()
    .meta({ description: 'Created at or after (Unix seconds).' }),
  to: z.coerce
    .number()
    .int()
    .nonnegative()
    .max(LATEST_SECONDS)
    .optional()
    .meta({ description: 'Created before (Unix seconds).' }),
  ...pageQueryFields,
});
export type AdminJobQuery = z.infer<typeof AdminJobQuery>;

/** `GET /admin/audit`: entries are numbered, so its cursor is the last one's number. */
/** The largest value of a PostgreSQL bigint. */
const MAX_BIGINT = 2n ** 63n - 1n;

export const AuditQuery = z.object({
  cursor: z
    .string()
    .regex(/^\d{1,19}$/)
    // An entry id is a PostgreSQL bigint: a larger number is no cursor this API gave.
    .refine((cursor) => !/^\d+$/.test(cursor) || BigInt(cursor) <= MAX_BIGINT, 'Unknown cursor')
    .optional()
    .meta({ description: '`nextCursor` of the previous page.' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(50)
    .meta({ description: 'Entries per page, at most 100.' }),
});
