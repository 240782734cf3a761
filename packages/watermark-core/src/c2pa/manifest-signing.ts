// The one signing path under signManifest (bytes) and signManifestFile (file to file): probe the
// input for a manifest, plan the manifest, build it with the parent ingredient, sign through the
// signer's callback, and map c2pa-node's failures to Hallmark's errors. Where the asset lives
// (a buffer or a path) is only the source and destination handed to c2pa-node.
import { Builder } from '@contentauth/c2pa-node';
import { asBuffer, openAsset, type SourceAsset, sourceOf } from './asset-reader.ts';
import { BUILDER_SETTINGS, PROBE_SETTINGS } from './c2pa-settings.ts';
import {
  ManifestSigningError,
  TimestampUnavailableError,
  TokenUnavailableError,
} from './errors.ts';
import type { C2paFormat } from './formats.ts';
import { type ManifestPlan, type ParentProvenance, planManifest } from './manifest-definition.ts';
import type { ValidManifestRequest } from './manifest-request.ts';
import { manifestLabelsOf } from './manifest-store.ts';
import { PARENT_THUMBNAIL_IDENTIFIER } from './parent-thumbnail.ts';
import type { ManifestSigner } from './signers.ts';

/** Where c2pa-node writes the signed asset: a buffer it fills in, or a file it (re)creates. */
export type SigningDestination = { buffer: Buffer | null } | { path: string; mimeType: string };

export interface SigningJob {
  readonly request: ValidManifestRequest;
  readonly format: C2paFormat;
  readonly source: SourceAsset;
  /** Mutated by c2pa-node: a buffer destination holds the signed asset afterwards. */
  readonly destination: SigningDestination;
  /** The parent's picture, asked for only when the input carries a manifest. */
  readonly parentThumbnail: () => Promise<Uint8Array | undefined>;
}

export interface SigningOutcome {
  readonly manifestStore: Uint8Array;
  readonly manifestId: string;
  readonly parent: ParentProvenance['kind'];
}

/**
 * @throws UnreadableImageError when the input's container does not parse
 * @throws ManifestSigningError, TimestampUnavailableError, TokenUnavailableError when signing fails
 */
export async function signAsset(job: SigningJob, signer: ManifestSigner): Promise<SigningOutcome> {
  const { request, format, source } = job;
  const opened = await openAsset(source, PROBE_SETTINGS);
  let parent: ParentProvenance = opened.kind === 'manifest' ? { kind: 'manifest' } : opened;
  const thumbnail = parent.kind === 'none' ? undefined : await job.parentThumbnail();

  let builder: Builder;
  try {
    builder = await prepareBuilder(
      planManifest(request, format, parent),
      parent,
      source,
      thumbnail,
    );
  } catch (error) {
    // c2pa-node could read the manifest but not turn it into an ingredient: keep the history
    // honest by recording the parent as unreadable rather than dropping it.
    parent = { kind: 'unreadable', reason: errorMessage(error) };
    builder = await prepareBuilder(
      planManifest(request, format, parent),
      parent,
      source,
      thumbnail,
    );
  }

  const store = await signWithCallback(builder, signer, source, job.destination);
  const manifestStore = new Uint8Array(store.buffer, store.byteOffset, store.length);
  const manifestId = manifestLabelsOf(manifestStore).at(-1);
  if (manifestId === undefined) {
    throw new ManifestSigningError('c2pa-node returned no readable manifest store');
  }
  return { manifestStore, manifestId, parent: parent.kind };
}

async function prepareBuilder(
  plan: ManifestPlan,
  parent: ParentProvenance,
  source: SourceAsset,
  thumbnail: Uint8Array | undefined,
): Promise<Builder> {
  // c2pa-types (the Manifest type) is a dev-only dependency of c2pa-node; the definition is
  // typed by planManifest instead.
  const builder = Builder.withJson(plan.definition as never, BUILDER_SETTINGS);
  if (plan.parent !== undefined) {
    const ingredient =
      thumbnail === undefined
        ? plan.parent
        : {
            ...plan.parent,
            thumbnail: { format: 'image/jpeg', identifier: PARENT_THUMBNAIL_IDENTIFIER },
          };
    if (thumbnail !== undefined) {
      await builder.addResource(PARENT_THUMBNAIL_IDENTIFIER, {
        buffer: asBuffer(thumbnail),
        mimeType: 'image/jpeg',
      });
    }
    // With the asset, c2pa-node copies the parent's manifest store and records how it validated.
    await builder.addIngredient(
      JSON.stringify(ingredient),
      parent.kind === 'manifest' ? sourceOf(source) : undefined,
    );
  }
  return builder;
}

/** Signs and returns the manifest store alone: the durable copy kept beside the output. */
async function signWithCallback(
  builder: Builder,
  signer: ManifestSigner,
  source: SourceAsset,
  destination: SigningDestination,
): Promise<Buffer> {
  // c2pa-node turns the callback's failure into its own message: the signer's error is kept so
  // that a token that went away is reported as such (and retried), not as a refused manifest.
  let signerFailure: unknown;
  const sign = async (toBeSigned: Buffer) => {
    try {
      return asBuffer(await signer.sign(toBeSigned));
    } catch (error) {
      signerFailure = error;
      throw error;
    }
  };
  try {
    // Per-call callback signing for every kind of signer. Not `Builder.sign` with a LocalSigner:
    // it blocks the event loop, timestamp authority round-trip included. Not a long-lived
    // CallbackSigner: it holds a Node-API channel that keeps the process from exiting until it
    // is garbage-collected; this one is dropped when the call ends.
    return await builder.signConfigAsync(
      sign,
      {
        alg: signer.algorithm,
        certs: [Buffer.from(signer.certChainPem)],
        reserveSize: signatureReserve(signer),
        ...(signer.timestampAuthorityUrl === undefined
          ? {}
          : { tsaUrl: signer.timestampAuthorityUrl }),
        // false: the callback returns a raw signature and c2pa-node builds the COSE structure.
        directCoseHandling: false,
      },
      sourceOf(source),
      destination,
    );
  } catch (error) {
    if (signerFailure instanceof TokenUnavailableError) throw signerFailure;
    if (signer.timestampAuthorityUrl !== undefined && isTimestampFailure(error)) {
      throw new TimestampUnavailableError(
        `the time-stamp authority ${signer.timestampAuthorityUrl} gave no time-stamp: ${errorMessage(error)}`,
        { cause: error },
      );
    }
    throw new ManifestSigningError(errorMessage(error), { cause: error });
  }
}

/**
 * Bytes kept free for the COSE signature: the certificate chain, the signature itself, and an
 * RFC 3161 timestamp token when a timestamp authority is configured (c2pa-rs's own allowance).
 */
function signatureReserve(signer: ManifestSigner): number {
  return (
    2048 + signer.certChainDerBytes + (signer.timestampAuthorityUrl === undefined ? 0 : 10_000)
  );
}

/**
 * c2pa-node reports a time-stamp authority that cannot be reached, or answers with no usable
 * token, only in its message: its HTTP client's failure, an HTTP error status, or the time-stamp
 * step's. Signing reaches nothing else over HTTP (remote manifests are never fetched).
 */
function isTimestampFailure(error: unknown): boolean {
  return /http resolver|HTTP error|time ?stamp|\btsa\b/i.test(errorMessage(error));
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
