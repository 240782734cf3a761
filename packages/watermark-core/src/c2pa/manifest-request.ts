// What a caller may put in a manifest. The client metadata reuses the API contract's
// `WatermarkMetadata` so that the API, the worker and the CLI refuse exactly the same inputs.
import { WatermarkMetadata } from '@hallmark/schemas';
import { z } from 'zod';
import { InvalidManifestRequestError } from './errors.ts';

/** The invisible mark a manifest points at: the `c2pa.soft-binding` assertion's content. */
export const SoftBindingRequest = z.strictObject({
  /** Algorithm name, e.g. the invisible engine's `INVISIBLE_MARK_ALGORITHM`. */
  algorithm: z.string().min(1).max(200),
  /** The mark's payload as hex (whole bytes); stored base64-encoded as C2PA soft bindings are. */
  payloadHex: z
    .string()
    .regex(/^(?:[0-9a-fA-F]{2}){1,64}$/, { error: 'Expected 1 to 64 bytes written as hex' })
    .transform((hex) => hex.toLowerCase()),
});
export type SoftBindingRequest = z.input<typeof SoftBindingRequest>;

const ServiceIdentifier = z.string().min(1).max(200);

export const ManifestRequest = z.strictObject({
  /** The request's `options.data`: author, creationDate, description, copyright, licenseType. */
  data: WatermarkMetadata.optional(),
  /** The service's identifiers, recorded in the Hallmark assertion; absent in CLI use. */
  fileId: ServiceIdentifier.optional(),
  requestId: ServiceIdentifier.optional(),
  /** Human-readable name of the asset (e.g. the uploaded file name): the manifest's title. */
  title: z.string().min(1).max(500).optional(),
  /** Name of the input, the parent ingredient's title when it had provenance. Default: title. */
  parentTitle: z.string().min(1).max(500).optional(),
  /** The perceptual fingerprint of the image, recorded in the Hallmark assertion. */
  fingerprint: z
    .string()
    .regex(/^[0-9a-f]{16}$/)
    .optional(),
  /** Present when the invisible mark was applied: adds `c2pa.watermarked.bound` and the soft binding. */
  softBinding: SoftBindingRequest.optional(),
  /**
   * IPTC digital source type of an asset that had no provenance before (`c2pa.created` needs
   * one). Default: C2PA's "not specified", because the service cannot know how a photo was made.
   */
  digitalSourceType: z.url().max(300).optional(),
});
/** What callers pass to `signManifest`. */
export type ManifestRequest = z.input<typeof ManifestRequest>;
/** A request after validation (hex lower-cased). */
export type ValidManifestRequest = z.output<typeof ManifestRequest>;

export function parseManifestRequest(request: unknown): ValidManifestRequest {
  const parsed = ManifestRequest.safeParse(request);
  if (parsed.success) return parsed.data;
  throw new InvalidManifestRequestError(
    parsed.error.issues.map((issue) => `${issue.path.join('.') || '(request)'}: ${issue.message}`),
  );
}
