import { z } from 'zod';
import { HttpUrl } from './common/http-url.ts';
import { PublicRecord } from './public-verification.ts';
import {
  C2paFinding,
  ContentFinding,
  InvisibleFinding,
  Verdict,
  VerificationReason,
} from './verification.ts';

/** The `format` of every statement this version signs; a checker refuses any other. */
export const REPORT_FORMAT = 'hallmark-verification-report/1';

/** The JWS `typ` of a signed report (RFC 7515 section 4.1.9). */
export const REPORT_JWS_TYPE = 'hallmark-verification-report+jws';

const Sha256Hex = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .meta({ description: 'SHA-256, 64 lowercase hex digits.' });

const Base64Url = z
  .string()
  .regex(/^[A-Za-z0-9_-]*$/)
  .meta({ description: 'base64url without padding (RFC 7515 section 2).' });

/**
 * What a signed report says: the verdict on one file, named by its digest, as this deployment
 * reached it. Self-contained: it holds no tenant ids and needs nothing from the service to read.
 */
export const VerificationStatement = z
  .strictObject({
    format: z.literal(REPORT_FORMAT),
    verificationId: z.uuid(),
    verifiedAt: z.iso.datetime().meta({ description: 'When the verification finished.' }),
    issuedAt: z.iso.datetime().meta({
      description: "When this report was signed, by the service's clock.",
    }),
    file: z
      .strictObject({ sha256: Sha256Hex, size: z.int().min(0) })
      .meta({ description: 'The file examined: the verdict is about these bytes only.' }),
    verdict: Verdict,
    reasons: z.array(VerificationReason),
    invisible: InvisibleFinding,
    c2pa: C2paFinding,
    content: ContentFinding,
    // What the deployment published with the mark found, as anyone may see it: the ids of the
    // job belong to the key that made it.
    record: PublicRecord.nullable(),
    service: z.strictObject({
      name: z.string(),
      url: HttpUrl.meta({ description: "The deployment's public address." }),
      version: z.string(),
    }),
    reportKey: z.strictObject({
      development: z.boolean().meta({
        description:
          "Signed by the deployment's development identity (NOT FOR PRODUCTION): no one outside should trust it.",
      }),
    }),
  })
  .meta({
    id: 'VerificationStatement',
    description:
      "The content of a signed verification report: the JSON its `payload` decodes to (docs/verification.md, 'Signed reports'). Its `record` never holds `requestId` or `fileId`.",
  });
export type VerificationStatement = z.infer<typeof VerificationStatement>;

/**
 * A JWS in the flattened JSON serialization (RFC 7515 section 7.2.2): an ES256 or ES384
 * signature over the statement, with the signing certificate chain in the protected header's
 * `x5c`. Any JOSE library checks it; `hallmark report check` and the SDK's `checkReport` also
 * check the chain against given roots and the file against its digest.
 */
export const SignedVerificationReport = z
  .strictObject({
    payload: Base64Url.meta({
      description: 'The `VerificationStatement`, UTF-8 JSON, base64url.',
    }),
    protected: Base64Url.meta({
      description: `The protected header, base64url JSON: \`alg\` (ES256 or ES384), \`typ\` (\`${REPORT_JWS_TYPE}\`), \`kid\`, \`x5c\` (the certificate chain, signer first).`,
    }),
    header: z
      .strictObject({
        tst: z.string().meta({
          description:
            "An RFC 3161 time-stamp token (base64 DER) over the signature's bytes, from the deployment's C2PA_TSA_URL.",
        }),
      })
      .optional()
      .meta({
        description: 'The unprotected header; present when a time-stamp authority is configured.',
      }),
    signature: Base64Url,
  })
  .meta({
    id: 'SignedVerificationReport',
    description:
      'A verification report signed by the deployment: a JWS (RFC 7515) in the flattened JSON serialization, serialised without whitespace in this member order, so any change of a byte is refused.',
  });
export type SignedVerificationReport = z.infer<typeof SignedVerificationReport>;

export const ReportKey = z
  .strictObject({
    kty: z.literal('EC'),
    crv: z.enum(['P-256', 'P-384']),
    x: Base64Url,
    y: Base64Url,
    kid: z.string(),
    use: z.literal('sig'),
    alg: z.enum(['ES256', 'ES384']),
    x5c: z.array(z.string()).min(1).meta({
      description: 'The certificate chain, signer first, base64 DER (RFC 7517 section 4.7).',
    }),
    development: z.boolean().meta({
      description: 'The development identity (NOT FOR PRODUCTION).',
    }),
  })
  .meta({ id: 'ReportKey', description: 'A report signing key as a JWK (RFC 7517).' });
export type ReportKey = z.infer<typeof ReportKey>;

export const ReportKeySet = z.strictObject({ keys: z.array(ReportKey) }).meta({
  id: 'ReportKeySet',
  description: 'The keys this deployment signs verification reports with (a JWK Set).',
});
export type ReportKeySet = z.infer<typeof ReportKeySet>;

/**
 * crJSON, the C2PA's JSON report of a manifest store. Only its envelope is described here; the
 * published schema (docs/c2pa/crJSON-schema.json) describes the rest, and tests hold the service
 * to it.
 */
export const CrJson = z
  .looseObject({
    '@context': z.union([z.array(z.string()), z.record(z.string(), z.string())]),
    manifests: z.array(z.record(z.string(), z.unknown())),
    jsonGenerator: z.looseObject({ name: z.string(), version: z.string() }),
  })
  .meta({
    id: 'CrJson',
    description:
      "A Content Credential JSON document (crJSON): the file's manifests, active first, each with its claim, assertions, signature and validation results.",
  });
export type CrJson = z.infer<typeof CrJson>;
