import { z } from 'zod';
import { AdminJobQuery } from './admin.ts';
import { UnixSeconds } from './common/unix-seconds.ts';
import { pageQueryFields } from './page-query.ts';
import { PublicVerificationReport } from './public-verification.ts';
import { Verdict } from './verification.ts';
import { WatermarkJobError, WatermarkJobStatus } from './watermark-job.ts';

export const VerificationOrigin = z.enum(['api', 'public', 'console']).meta({
  id: 'VerificationOrigin',
  description:
    '`api`: a client with its API key; `public`: anyone, on the public verify page; `console`: an operator in the console.',
});
export type VerificationOrigin = z.infer<typeof VerificationOrigin>;

export const AdminVerification = z
  .strictObject({
    verificationId: z.uuid(),
    origin: VerificationOrigin,
    keyPrefix: z.string().nullable().meta({ description: 'The key that asked (`api` only).' }),
    operatorEmail: z
      .string()
      .nullable()
      .meta({ description: 'The operator who asked (`console` only).' }),
    status: WatermarkJobStatus,
    verdict: Verdict.nullable(),
    markPayload: z.string().nullable(),
    manifestId: z.string().nullable(),
    fileId: z.uuid().nullable().meta({
      description: 'The uploaded file (`POST /verify`); null for an image sent in the request.',
    }),
    createdAt: UnixSeconds,
    finishedAt: UnixSeconds.nullable(),
  })
  .meta({ id: 'AdminVerification' });
export type AdminVerification = z.infer<typeof AdminVerification>;

export const AdminVerificationPage = z
  .strictObject({ items: z.array(AdminVerification), nextCursor: z.string().nullable() })
  .meta({ id: 'AdminVerificationPage' });
export type AdminVerificationPage = z.infer<typeof AdminVerificationPage>;

export const AdminVerificationDetail = z
  .strictObject({
    ...AdminVerification.shape,
    issuedRequestId: z.uuid().nullable().meta({
      description: 'The watermark job that issued the mark found, when this deployment did.',
    }),
    error: WatermarkJobError.nullable().meta({ description: 'Present when `failed`.' }),
    report: PublicVerificationReport.nullable().meta({
      description: 'The report as the public page shows it; null until `success`.',
    }),
  })
  .meta({ id: 'AdminVerificationDetail' });
export type AdminVerificationDetail = z.infer<typeof AdminVerificationDetail>;

/** `GET /admin/verifications`: filters, then the page. */
export const AdminVerificationQuery = z.object({
  verdict: Verdict.optional(),
  key: AdminJobQuery.shape.key,
  origin: VerificationOrigin.optional(),
  from: AdminJobQuery.shape.from,
  to: AdminJobQuery.shape.to,
  ...pageQueryFields,
});
export type AdminVerificationQuery = z.infer<typeof AdminVerificationQuery>;
