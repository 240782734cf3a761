import { z } from 'zod';
import { HttpUrl } from './common/http-url.ts';
import { UnixSeconds } from './common/unix-seconds.ts';
import { IpfsRecord } from './ipfs-record.ts';
import { Nft } from './nft.ts';
import { WatermarkJobError, WatermarkJobStatus } from './watermark-job.ts';
import { WatermarkType } from './watermark-request.ts';

/**
 * What a verification concludes (the decision table is in docs/verification.md):
 * `authentic`: a valid manifest whose soft binding names the mark found in the pixels;
 * `manifest_stripped`: a mark this deployment issued, no manifest in the file;
 * `mismatch`: the manifest and the mark disagree, or belong to different records, or the mark
 *   sits on another picture than the one it was issued for (tampering);
 * `content_edited`: the mark's picture, changed in places (`content.regions`; tampering);
 * `manifest_invalid`: the manifest's signature or hashes fail;
 * `manifest_only`: a valid manifest and no mark;
 * `unknown_mark`: a mark this deployment did not issue;
 * `no_provenance`: neither.
 */
export const VERDICTS = [
  'authentic',
  'manifest_stripped',
  'mismatch',
  'content_edited',
  'manifest_invalid',
  'manifest_only',
  'unknown_mark',
  'no_provenance',
] as const;
export const Verdict = z.enum(VERDICTS).meta({
  id: 'Verdict',
  description:
    '`authentic`, `manifest_stripped`, `mismatch`, `manifest_invalid`, `manifest_only`, `unknown_mark` or `no_provenance`; `reasons` explains it.',
});
export type Verdict = z.infer<typeof Verdict>;

export const VerificationReason = z
  .strictObject({
    code: z
      .string()
      .min(1)
      .meta({ examples: ['soft_binding_matches_mark'] }),
    message: z.string(),
  })
  .meta({ id: 'VerificationReason', description: 'One finding behind the verdict.' });
export type VerificationReason = z.infer<typeof VerificationReason>;

const PayloadHex = z
  .string()
  .regex(/^[0-9a-f]{16}$/)
  .meta({ description: 'The 64-bit mark payload, 16 lowercase hex digits.' });

export const MarkGeometryFinding = z
  .strictObject({
    rotation: z.number().meta({ description: 'Rotation of the copy, degrees clockwise.' }),
    mirrored: z.boolean().meta({ description: 'The copy is a mirror image.' }),
    scale: z.number().positive().nullable().meta({
      description:
        "Size of the copy against the issued output (0.5: half the size); null when the mark's record is unknown.",
    }),
    cropOffset: z.strictObject({ x: z.number(), y: z.number() }).nullable().meta({
      description:
        "How far into the issued output the copy begins, in the output's pixels along the copy's axes, modulo one tile of the mark; null when the record is unknown.",
    }),
  })
  .meta({
    id: 'MarkGeometryFinding',
    description: 'What the detector had to undo to read the mark.',
  });
export type MarkGeometryFinding = z.infer<typeof MarkGeometryFinding>;

export const InvisibleFinding = z
  .strictObject({
    found: z.boolean(),
    algorithm: z.string().meta({ description: 'The mark algorithm looked for.' }),
    payload: PayloadHex.nullable(),
    confidence: z
      .number()
      .min(0)
      .max(1)
      .meta({ description: 'How cleanly the payload was received, 0 to 1; 0 when not found.' }),
    geometry: MarkGeometryFinding.nullable().meta({ description: 'Present when found.' }),
  })
  .meta({ id: 'InvisibleFinding', description: 'The invisible mark read from the pixels.' });
export type InvisibleFinding = z.infer<typeof InvisibleFinding>;

const Published = {
  author: z.string().optional(),
  creationDate: z.string().optional(),
  description: z.string().optional(),
  copyright: z.string().optional(),
  licenseType: z.string().optional(),
};

export const ManifestSigner = z
  .strictObject({
    subject: z.string().nullable(),
    issuer: z.string().nullable(),
    algorithm: z.string().nullable(),
    signingTime: z.string().nullable().meta({
      description:
        "The time of the signature's RFC 3161 time-stamp; null without one. `timeStamp` says whether its authority is trusted.",
    }),
    isDevelopmentIdentity: z.boolean(),
    trustedBy: z.enum(['trust_list', 'operator_anchors']).nullable().optional().meta({
      description:
        "Which of the deployment's lists the signing certificate chains to: `trust_list` (the public list it adopts, e.g. the C2PA Trust List: C2PA_TRUST_LIST_PATH) or `operator_anchors` (its own roots, C2PA_TRUST_ANCHORS_PATH, and its development root while it signs with it); null when none does (`state` is then not `trusted`). Absent in reports made before it was recorded.",
    }),
    timeStamp: z.enum(['trusted', 'untrusted']).nullable().optional().meta({
      description:
        "Whether the time-stamp's authority is trusted (a configured anchor, or a public root the C2PA library carries); null without a time-stamp. Absent in reports made before it was recorded.",
    }),
  })
  .meta({ id: 'ManifestSigner' });

/** A 64 KiB image in base64 behind the longest `data:image/...;base64,` prefix. */
const INGREDIENT_THUMBNAIL_MAX_LENGTH =
  'data:image/webp;base64,'.length + Math.ceil(65_536 / 3) * 4;

export const ManifestIngredient = z
  .strictObject({
    title: z.string().nullable(),
    relationship: z.string(),
    manifestId: z.string().nullable(),
    state: z.enum(['trusted', 'valid_untrusted', 'invalid']).nullable(),
    /** How deep in the history: 1 for the file this one was made from. */
    depth: z.int().min(1),
    thumbnail: z
      .string()
      .max(INGREDIENT_THUMBNAIL_MAX_LENGTH)
      .regex(/^data:image\/(?:jpeg|png|webp);base64,[A-Za-z0-9+/]+={0,2}$/)
      .nullable()
      .optional()
      .meta({
        description:
          "The picture the manifest keeps of this step, as a `data:` URL (`data:image/jpeg;base64,...`; JPEG, PNG or WebP, checked by its magic bytes, at most 64 KiB before encoding). Null when the manifest keeps none, when it is larger or not the image it claims to be, or past the history's first 8 pictures; absent from reports made before thumbnails were read.",
      }),
  })
  .meta({ id: 'ManifestIngredient', description: 'One step of the edit history, newest first.' });

export const C2paFinding = z
  .strictObject({
    present: z.boolean(),
    manifestId: z.string().nullable().meta({ description: 'Label of the active manifest.' }),
    state: z
      .enum(['trusted', 'valid_untrusted', 'invalid'])
      .nullable()
      .meta({ description: 'Null when no manifest is present.' }),
    statusCodes: z
      .array(z.string())
      .meta({ description: 'C2PA validation status codes of the failures, if any.' }),
    signer: ManifestSigner.nullable(),
    actions: z.array(
      z.strictObject({
        action: z.string(),
        softwareAgent: z.string().nullable(),
        when: z.string().nullable(),
      }),
    ),
    metadata: z.strictObject(Published),
    softBinding: z
      .strictObject({ algorithm: z.string(), payload: z.string() })
      .nullable()
      .meta({ description: 'The soft-binding assertion: the mark the manifest names (hex).' }),
    ingredients: z.array(ManifestIngredient),
  })
  .meta({ id: 'C2paFinding', description: "The file's embedded C2PA manifest, validated." });
export type C2paFinding = z.infer<typeof C2paFinding>;

export const FingerprintFinding = z
  .strictObject({
    algorithm: z.string(),
    value: z
      .string()
      .regex(/^[0-9a-f]{16}$/)
      .nullable()
      .meta({ description: "The file's perceptual fingerprint; null when it could not be taken." }),
    distance: z.int().min(0).max(64).nullable().meta({
      description:
        "Bits (of 64) it differs from the fingerprint recorded with the mark's job; null without one. Informative only: a crop moves it as far as another picture does, so `content` decides.",
    }),
  })
  .meta({
    id: 'FingerprintFinding',
    description:
      "The file's global perceptual hash and its distance to the one recorded with the mark's job; kept for clients that read it, `content` is what the verdict follows.",
  });
export type FingerprintFinding = z.infer<typeof FingerprintFinding>;

export const ContentRegion = z
  .strictObject({
    x: z.int().min(0),
    y: z.int().min(0),
    width: z.int().min(1),
    height: z.int().min(1),
  })
  .meta({
    id: 'ContentRegion',
    description: "A rectangle of the copy, in the copy's own pixels (before any EXIF rotation).",
  });
export type ContentRegion = z.infer<typeof ContentRegion>;

export const CONTENT_STATES = ['same', 'edited', 'differs', 'not_compared'] as const;

export const ContentFinding = z
  .strictObject({
    state: z.enum(CONTENT_STATES).meta({
      description:
        '`same`: the copy shows the issued picture (however cropped, resized, re-encoded or toned); `edited`: the issued picture, changed in `regions`; `differs`: another picture; `not_compared`: no comparison (no mark issued here, no reference kept for the job, or too little of the picture to judge).',
    }),
    coverage: z.number().min(0).max(1).nullable().meta({
      description: 'Share of the issued picture the copy shows, 0 to 1; null when not compared.',
    }),
    similarity: z.number().min(0).max(1).nullable().meta({
      description:
        'Share of what the copy shows that matches the issued picture, 0 to 1; null when not compared.',
    }),
    regions: z.array(ContentRegion).meta({
      description: 'Where the copy differs from the issued picture; empty unless `edited`.',
    }),
  })
  .meta({
    id: 'ContentFinding',
    description:
      "The copy compared, region by region, with the picture its mark was issued in, placed by the mark's geometry (docs/verification.md).",
  });
export type ContentFinding = z.infer<typeof ContentFinding>;

export const PublishedRecord = z
  .strictObject({
    ...Published,
    watermarkTypes: z.array(WatermarkType),
    issuedAt: UnixSeconds.meta({ description: 'When the watermarked file was made.' }),
    manifestId: z.string().nullable(),
    manifestUrl: HttpUrl.nullable().meta({
      description:
        'Where the original manifest store (`application/c2pa`) can be fetched, `GET /manifests/{manifestId}`.',
    }),
    ipfs: IpfsRecord.nullable(),
    nft: Nft.nullable(),
    requestId: z
      .uuid()
      .optional()
      .meta({ description: "Only when the caller's key made the watermark job." }),
    fileId: z.uuid().optional().meta({ description: 'As `requestId`.' }),
  })
  .meta({
    id: 'PublishedRecord',
    description:
      'What this deployment published with the mark found: the facts given at watermarking and the IPFS record and NFT, if any.',
  });
export type PublishedRecord = z.infer<typeof PublishedRecord>;

export const VerificationReport = z
  .strictObject({
    isWatermarked: z
      .boolean()
      .meta({ description: 'A mark or a manifest was found (vendor-compatible field).' }),
    watermarkTypes: z
      .array(WatermarkType)
      .meta({ description: 'Which techniques were found in the file.' }),
    metadata: z
      .strictObject(Published)
      .meta({ description: 'The published facts: from the record, else from the manifest.' }),
    ipfsLink: HttpUrl.nullable(),
    nftInfo: Nft.nullable(),
    verdict: Verdict,
    reasons: z.array(VerificationReason),
    invisible: InvisibleFinding,
    c2pa: C2paFinding,
    fingerprint: FingerprintFinding,
    content: ContentFinding,
    record: PublishedRecord.nullable(),
  })
  .meta({
    id: 'VerificationReport',
    description:
      'What was found in the file and what it means. `isWatermarked`, `watermarkTypes`, `metadata`, `ipfsLink` and `nftInfo` keep the field names of the validation result clients of other services know.',
  });
export type VerificationReport = z.infer<typeof VerificationReport>;

export const VerifyRequest = z
  .strictObject({ fileId: z.uuid().meta({ description: 'An uploaded file of this key.' }) })
  .meta({ id: 'VerifyRequest' });
export type VerifyRequest = z.infer<typeof VerifyRequest>;

export const VerificationAccepted = z
  .strictObject({
    status: z.literal('pending'),
    requestId: z.uuid().meta({ description: 'Poll `GET /verify/{requestId}` with it.' }),
    fileId: z.uuid(),
  })
  .meta({ id: 'VerificationAccepted', description: 'The verification was queued.' });
export type VerificationAccepted = z.infer<typeof VerificationAccepted>;

export const VerificationJob = z
  .strictObject({
    status: WatermarkJobStatus,
    requestId: z.uuid(),
    fileId: z
      .uuid()
      .nullable()
      .meta({ description: 'Null for a verification of a file sent in the request.' }),
    result: VerificationReport.optional().meta({ description: 'Present when `success`.' }),
    error: WatermarkJobError.optional().meta({ description: 'Present when `failed`.' }),
  })
  .meta({
    id: 'VerificationJob',
    description:
      'A verification in the same envelope as watermark jobs: `result` when `success`, `error` when `failed`.',
  });
export type VerificationJob = z.infer<typeof VerificationJob>;
