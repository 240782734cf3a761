import { type SignedLinkOptions, sendToSignedLink } from './signed-link.ts';

/**
 * GETs a signed download link such as a job's `watermarkedUrl` (no bearer token; docs/flow.md).
 * Rejects with `HallmarkApiError` 403 once the link has expired (after the job's `expiredAt`):
 * poll the job again for a fresh link.
 */
export async function downloadFile(
  link: string,
  options: SignedLinkOptions = {},
): Promise<Uint8Array> {
  const response = await sendToSignedLink(link, { method: 'GET' }, options);
  return new Uint8Array(await response.arrayBuffer());
}
