import { VerificationFailedError } from './errors.ts';
import type { HallmarkClient } from './generated/client.ts';
import type { VerificationJob } from './generated/openapi.ts';
import { fileToUpload, type WatermarkInput } from './input.ts';
import type { SignedLinkOptions } from './signed-link.ts';
import { uploadFile } from './upload.ts';
import { pollUntilFinal, type WaitForJobOptions } from './wait-for-job.ts';

export interface VerifyFileOptions extends SignedLinkOptions, WaitForJobOptions {
  /** Defaults to the `File`'s name or the path's last segment. */
  readonly fileName?: string | undefined;
  /** Defaults to the `Blob`'s type, else the extension of the file name. */
  readonly contentType?: string | undefined;
  /** Sent as `Idempotency-Key` with the verification request. */
  readonly idempotencyKey?: string | undefined;
}

/** The report of a verification: verdict, reasons, both marks, the record they lead to. */
export type VerificationReport = NonNullable<VerificationJob['result']>;

/** A finished verification: its id and the report. */
export interface VerifiedFile {
  readonly verification: VerificationJob;
  readonly report: VerificationReport;
}

/**
 * Verifies any copy of an image: announces and uploads it, asks for its verification and waits
 * for the report (`verdict`, `reasons`, both marks, the record they lead to). Rejects as
 * `watermarkFile` does, and with `VerificationFailedError` when the image cannot be read.
 */
export async function verifyFile(
  client: Pick<HallmarkClient, 'createUploadLink' | 'createVerification' | 'getVerification'>,
  input: WatermarkInput,
  options: VerifyFileOptions = {},
): Promise<VerifiedFile> {
  const { signal } = options;
  const file = await fileToUpload(input, options);
  const { fileId, uploadLink } = await client.createUploadLink(
    { contentType: file.contentType, fileName: file.fileName },
    { signal },
  );
  await uploadFile(uploadLink, file.bytes, file.contentType, options);
  const { requestId } = await client.createVerification(
    { fileId },
    { signal, idempotencyKey: options.idempotencyKey },
  );
  const verification = await pollUntilFinal(
    (pollSignal) => client.getVerification(requestId, { signal: pollSignal }),
    requestId,
    options,
    (failed) => new VerificationFailedError(failed),
  );
  if (verification.result === undefined) {
    throw new VerificationFailedError({
      ...verification,
      status: 'failed',
      error: { code: 'unknown', message: 'the verification succeeded without a report' },
    });
  }
  return { verification, report: verification.result };
}
