import { VerificationFailedError } from './errors.ts';
import type { HallmarkClient } from './generated/client.ts';
import { type FileHints, fileToUpload, type WatermarkInput } from './input.ts';
import type { VerifiedFile } from './verify-file.ts';

/** Overrides of what `verifyImage` reads off its input. */
export type VerifyImageHints = FileHints;

/**
 * Verifies an image in one request (`POST /verify/file`): the bytes go with the call, the answer
 * is the finished report, and the service keeps no copy. For files up to the deployment's
 * `VERIFY_SYNC_MAX_BYTES` (10 MiB by default); a larger one is refused with a `HallmarkApiError`
 * of type `payload-too-large`, and `verifyFile` takes it as a job.
 */
export async function verifyImage(
  client: Pick<HallmarkClient, 'verifyImage'>,
  input: WatermarkInput,
  hints: VerifyImageHints = {},
): Promise<VerifiedFile> {
  const file = await fileToUpload(input, hints);
  const verification = await client.verifyImage(file.bytes, {
    contentType: file.contentType,
    signal: hints.signal,
  });
  if (verification.status !== 'success' || verification.result === undefined) {
    throw new VerificationFailedError(verification);
  }
  return { verification, report: verification.result };
}
