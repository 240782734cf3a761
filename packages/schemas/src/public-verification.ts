import { z } from 'zod';
import { UnixSeconds } from './common/unix-seconds.ts';
import { PublishedRecord, VerificationReport } from './verification.ts';

// What anyone may see of a verification: the report as a key sees it, without any id that ties
// it to a tenant. The published record keeps what the deployment published (the facts, the IPFS
// record, the NFT, the manifest's link) and loses the watermark job's ids.

export const PublicRecord = PublishedRecord.omit({ requestId: true, fileId: true }).meta({
  id: 'PublicRecord',
  description:
    'What this deployment published with the mark found (the facts, the IPFS record, the NFT, the original manifest), without the ids of the job that issued it.',
});
export type PublicRecord = z.infer<typeof PublicRecord>;

export const PublicVerificationReport = VerificationReport.extend({
  record: PublicRecord.nullable(),
}).meta({
  id: 'PublicVerificationReport',
  description: 'A verification report as anyone may see it: no id of any key, job or file.',
});
export type PublicVerificationReport = z.infer<typeof PublicVerificationReport>;

export const PublicVerification = z
  .strictObject({
    verifiedAt: UnixSeconds,
    report: PublicVerificationReport,
    signedReport: z.string().nullable().meta({
      description:
        "The signed report of this verification (a `SignedVerificationReport` in the exact form the service writes: save these characters as they are, e.g. as report.json, and check them with `hallmark report check` or the SDK's `checkReport`). The picture is not kept, so this is the one chance to have it signed. null when C2PA_TSA_URL is set and the time-stamp authority did not answer: no report goes unstamped.",
    }),
  })
  .meta({
    id: 'PublicVerification',
    description: 'The verification of an image sent to the public verify page.',
  });
export type PublicVerification = z.infer<typeof PublicVerification>;

export const PublicVerifySettings = z
  .strictObject({
    enabled: z
      .boolean()
      .meta({ description: 'Whether `POST /public/verify` is on (PUBLIC_VERIFY).' }),
    maxBytes: z
      .int()
      .positive()
      .meta({ description: 'Largest image taken (VERIFY_SYNC_MAX_BYTES).' }),
    maxPixels: z.int().positive().meta({
      description:
        'Largest image read, in pixels (VERIFY_ANONYMOUS_MAX_PIXELS, at most MAX_IMAGE_PIXELS).',
    }),
  })
  .meta({ id: 'PublicVerifySettings', description: 'Whether and how anyone may verify an image.' });
export type PublicVerifySettings = z.infer<typeof PublicVerifySettings>;
