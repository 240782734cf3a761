import { writeStreamToFile } from './node-files.ts';
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

/**
 * GETs a signed download link into the file at `path` as a stream (Node only): a large output
 * (a video) is never held whole.
 */
export async function downloadFileTo(
  link: string,
  path: string,
  options: SignedLinkOptions = {},
): Promise<void> {
  const response = await sendToSignedLink(link, { method: 'GET' }, options);
  if (response.body === null) throw new Error(`the download of ${link} has no body`);
  await writeStreamToFile(path, response.body, options.signal);
}
