import { type SignedLinkOptions, sendToSignedLink } from './signed-link.ts';

/** The bytes of a file, as the browser or Node has them. */
export type FileBytes = Uint8Array | ArrayBuffer | Blob;

/**
 * PUTs the raw bytes of a file to the `uploadLink` of `createUploadLink` (docs/flow.md), with
 * `Content-Type` equal to the `contentType` announced there. Resolves once the storage has
 * them; rejects with `HallmarkApiError` for 400 (type differs from the announced one), 403 (bad
 * or expired signature), 409 (link already used), 413 (too large), 415 (bytes are not the type).
 */
export async function uploadFile(
  uploadLink: string,
  bytes: FileBytes,
  contentType: string,
  options: SignedLinkOptions = {},
): Promise<void> {
  const response = await sendToSignedLink(
    uploadLink,
    { method: 'PUT', headers: { 'content-type': contentType }, body: bytes },
    options,
  );
  // The answer (204, or 200 with a JSON summary) says nothing the caller needs.
  await response.body?.cancel();
}
