// signManifest: embeds a signed C2PA manifest into an image, video or audio file held in memory
// and returns the final bytes in the input's own format. The input's existing manifest, valid or
// not, becomes the parent ingredient, so the edit history reads back whole. Large files go
// through signManifestFile instead.
import { asBuffer } from './asset-reader.ts';
import { ManifestSigningError } from './errors.ts';
import { detectC2paFormat, mimeTypeOf } from './formats.ts';
import { type ManifestRequest, parseManifestRequest } from './manifest-request.ts';
import { signAsset } from './manifest-signing.ts';
import { parentThumbnail } from './parent-thumbnail.ts';
import { type SignedAsset, sealSignedAsset } from './signed-asset.ts';
import type { ManifestSigner } from './signers.ts';

/**
 * Signs `input` (any C2PA_FORMATS container, by its bytes) for `request`.
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
  const mimeType = mimeTypeOf(format);
  const output: { buffer: Buffer | null } = { buffer: null };
  const outcome = await signAsset(
    {
      request: valid,
      format,
      source: { buffer: asBuffer(input), mimeType },
      destination: output,
      parentThumbnail: () => parentThumbnail(input, format),
    },
    signer,
  );
  if (output.buffer === null) throw new ManifestSigningError('c2pa-node returned no output');
  return sealSignedAsset({
    ...outcome,
    bytes: new Uint8Array(output.buffer.buffer, output.buffer.byteOffset, output.buffer.length),
    format,
    mimeType,
    signer: signer.identity,
  });
}
