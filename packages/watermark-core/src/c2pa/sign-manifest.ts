// signManifest: embeds a signed C2PA manifest into an image and returns the final bytes in the
// input's own format. The input's existing manifest, valid or not, becomes the parent ingredient,
// so the edit history reads back whole.
import { Builder } from '@contentauth/c2pa-node';
import { asBuffer, type BufferAsset, openAsset } from './asset-reader.ts';
import { BUILDER_SETTINGS, PROBE_SETTINGS } from './c2pa-settings.ts';
import {
  ManifestSigningError,
  TimestampUnavailableError,
  TokenUnavailableError,
} from './errors.ts';
import { detectC2paFormat, mimeTypeOf } from './formats.ts';
import { type ManifestPlan, type ParentProvenance, planManifest } from './manifest-definition.ts';
import { type ManifestRequest, parseManifestRequest } from './manifest-request.ts';
import { manifestLabelsOf } from './manifest-store.ts';
import { PARENT_THUMBNAIL_IDENTIFIER, parentThumbnail } from './parent-thumbnail.ts';
import { type SignedAsset, sealSignedAsset } from './signed-asset.ts';
import type { ManifestSigner } from './signers.ts';

/**
 * Signs `input` (JPEG, PNG, WebP, AVIF, HEIC/HEIF, TIFF or GIF, by its bytes) for `request`.
 * Call it last: the returned SignedAsset is final, and no function here re-encodes one.
 *
 * @throws InvalidManifestRequestError for unknown keys or malformed fields
 * @throws UnsupportedFormatError, UnreadableImageError for inputs that cannot carry a manifest
 * @throws ManifestSigningError when c2pa-node or the signer refuses
 */
export async function signManifest(
  input: Uint8Array,
  request: ManifestRequest,
  signer: ManifestSigner,
): Promise<SignedAsset> {
  const valid = parseManifestRequest(request);
  const format = detectC2paFormat(input);
  const source: BufferAsset = { buffer: asBuffer(input), mimeType: mimeTypeOf(format) };
  const opened = await openAsset(source, PROBE_SETTINGS);
  let parent: ParentProvenance = opened.kind === 'manifest' ? { kind: 'manifest' } : opened;
  const thumbnail = parent.kind === 'none' ? undefined : await parentThumbnail(input);

  let builder: Builder;
  try {
    builder = await prepareBuilder(planManifest(valid, format, parent), parent, source, thumbnail);
  } catch (error) {
    // c2pa-node could read the manifest but not turn it into an ingredient: keep the history
    // honest by recording the parent as unreadable rather than dropping it.
    parent = { kind: 'unreadable', reason: errorMessage(error) };
    builder = await prepareBuilder(planManifest(valid, format, parent), parent, source, thumbnail);
  }

  const output: { buffer: Buffer | null } = { buffer: null };
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
  let store: Buffer;
  try {
    // Per-call callback signing for every kind of signer. Not `Builder.sign` with a LocalSigner:
    // it blocks the event loop, timestamp authority round-trip included. Not a long-lived
    // CallbackSigner: it holds a Node-API channel that keeps the process from exiting until it
    // is garbage-collected; this one is dropped when the call ends.
    // The answer is the manifest store alone: the durable copy kept beside the output.
    store = await builder.signConfigAsync(
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
      source,
      output,
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
  if (output.buffer === null) throw new ManifestSigningError('c2pa-node returned no output');
  const manifestStore = new Uint8Array(store.buffer, store.byteOffset, store.length);
  const manifestId = manifestLabelsOf(manifestStore).at(-1);
  if (manifestId === undefined) {
    throw new ManifestSigningError('c2pa-node returned no readable manifest store');
  }
  return sealSignedAsset({
    manifestStore,
    manifestId,
    bytes: new Uint8Array(output.buffer.buffer, output.buffer.byteOffset, output.buffer.length),
    format,
    mimeType: source.mimeType,
    signer: signer.identity,
    parent: parent.kind,
  });
}

async function prepareBuilder(
  plan: ManifestPlan,
  parent: ParentProvenance,
  source: BufferAsset,
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
      parent.kind === 'manifest' ? { buffer: source.buffer, mimeType: source.mimeType } : undefined,
    );
  }
  return builder;
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
