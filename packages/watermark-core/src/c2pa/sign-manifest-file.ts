// signManifestFile: signManifest from a file to a file, for media too large to hold in memory (a
// 2 GB video). c2pa-node reads the source and writes the destination through its own buffered
// file streams; Hallmark reads only the first bytes, to learn the format.
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ManifestSigningError } from './errors.ts';
import { detectC2paFormatOfFile } from './file-format.ts';
import { type C2paFormat, mimeTypeOf } from './formats.ts';
import { type ManifestRequest, parseManifestRequest } from './manifest-request.ts';
import { signAsset } from './manifest-signing.ts';
import { parentThumbnailOfFile } from './parent-thumbnail.ts';
import type { ManifestSigner, SignerIdentity } from './signers.ts';

/** What signManifestFile wrote: SignedAsset's facts, with the output's path for its bytes. */
export interface SignedFile {
  /** The final file: store or send it as it is; any re-encode drops the manifest. */
  readonly path: string;
  readonly format: C2paFormat;
  readonly mimeType: string;
  /** The embedded manifest store alone (`application/c2pa`), as SignedAsset.manifestStore. */
  readonly manifestStore: Uint8Array;
  /** Label of the active manifest (`urn:c2pa:…`). */
  readonly manifestId: string;
  readonly signer: SignerIdentity;
  /** What the input carried: `manifest` and `unreadable` inputs became the parent ingredient. */
  readonly parent: 'none' | 'manifest' | 'unreadable';
}

/**
 * Signs the file at `inputPath` (any C2PA_FORMATS container, by its first bytes) for `request`
 * and writes the signed file to `outputPath`, which must be another path: c2pa-node truncates
 * the destination before it reads the source. Whatever was at `outputPath` is replaced, and a
 * failed signing leaves nothing there.
 *
 * @throws InvalidManifestRequestError for unknown keys or malformed fields
 * @throws UnsupportedFormatError, UnreadableImageError for inputs that cannot carry a manifest
 * @throws ManifestSigningError when c2pa-node or the signer refuses, or the paths are the same
 */
export async function signManifestFile(
  inputPath: string,
  outputPath: string,
  request: ManifestRequest,
  signer: ManifestSigner,
): Promise<SignedFile> {
  const valid = parseManifestRequest(request);
  if (resolve(inputPath) === resolve(outputPath)) {
    throw new ManifestSigningError(`the output would overwrite the input (${inputPath})`);
  }
  const format = await detectC2paFormatOfFile(inputPath);
  const mimeType = mimeTypeOf(format);
  try {
    const outcome = await signAsset(
      {
        request: valid,
        format,
        source: { path: inputPath, mimeType },
        destination: { path: outputPath, mimeType },
        parentThumbnail: () => parentThumbnailOfFile(inputPath, format),
      },
      signer,
    );
    return Object.freeze({
      ...outcome,
      path: outputPath,
      format,
      mimeType,
      signer: signer.identity,
    });
  } catch (error) {
    // A half-written file must never be mistaken for a signed one.
    await rm(outputPath, { force: true });
    throw error;
  }
}
