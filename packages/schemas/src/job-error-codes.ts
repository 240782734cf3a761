/**
 * Whether another attempt may fix a failure with a code: `transient` failures (a node, a wallet,
 * an unexpected error) are retried with backoff and end the job only after its last attempt;
 * `permanent` ones (a bad image, an unavailable technique, a reverted mint) end it at once. Codes
 * that only ever end a job (`worker_crashed`, `attempts_exhausted`) are permanent by nature.
 */
export type JobErrorRetry = 'permanent' | 'transient';

/**
 * The stable `error.code` values of a failed job, each with what it means, whether the worker
 * retries it (`retry`) and whether running the failed job again may succeed (`retryable`: an
 * admin's retry, `POST /admin/jobs/{requestId}/retry`, which the console offers and the API
 * refuses otherwise). Not retryable are the failures the picture itself causes: another run of
 * the same bytes meets them again. The others may pass once their cause does (a node back, a
 * wallet funded, space freed, a chain configured). The worker fails jobs only with these codes;
 * clients may branch on them. Adding a code is compatible.
 */
const JOB_ERRORS = {
  invalid_image: {
    retry: 'permanent',
    retryable: false,
    description: 'The file could not be decoded as an image (corrupt or truncated).',
  },
  unsupported_format: {
    retry: 'permanent',
    retryable: false,
    description: 'The image format cannot be watermarked.',
  },
  image_too_small: {
    retry: 'permanent',
    retryable: false,
    description: 'The image is smaller than the invisible mark needs (256 px short side).',
  },
  too_many_pixels: {
    retry: 'permanent',
    retryable: false,
    description: 'The image has more pixels than this deployment accepts.',
  },
  processing_timeout: {
    retry: 'permanent',
    retryable: true,
    description: 'Processing the image took longer than this deployment allows.',
  },
  technique_unavailable: {
    retry: 'permanent',
    retryable: true,
    description: 'A requested technique is not available on this deployment.',
  },
  ipfs_unreachable: {
    retry: 'transient',
    retryable: true,
    description: 'The IPFS node could not be reached after every retry.',
  },
  nft_unavailable: {
    retry: 'permanent',
    retryable: true,
    description: 'This deployment has no blockchain configured for minting.',
  },
  // A wallet can be funded while the job waits for its next attempt.
  insufficient_funds: {
    retry: 'transient',
    retryable: true,
    description: 'The minting wallet cannot pay the transaction fee.',
  },
  mint_reverted: {
    retry: 'permanent',
    retryable: true,
    description: 'The NFT contract refused the mint.',
  },
  rpc_unreachable: {
    retry: 'transient',
    retryable: true,
    description: 'The blockchain RPC endpoint could not be reached after every retry.',
  },
  mint_timeout: {
    retry: 'transient',
    retryable: true,
    description: 'The mint transaction was not confirmed in time.',
  },
  // An HSM that restarts or a token unplugged for a moment: the job waits for it.
  signing_unavailable: {
    retry: 'transient',
    retryable: true,
    description: 'The signing key (its HSM or token) could not be reached after every retry.',
  },
  timestamp_unavailable: {
    retry: 'transient',
    retryable: true,
    description: 'The time-stamp authority could not be reached after every retry.',
  },
  storage_full: {
    retry: 'permanent',
    retryable: true,
    description: "The service's storage is full; the output could not be stored.",
  },
  internal_error: {
    retry: 'transient',
    retryable: true,
    description: 'An unexpected failure persisted after every retry.',
  },
  worker_crashed: {
    retry: 'permanent',
    retryable: false,
    description: 'The worker stopped while processing this image three times; it is not retried.',
  },
  attempts_exhausted: {
    retry: 'permanent',
    retryable: true,
    description: 'Every attempt this deployment allows for a job was used without success.',
  },
} as const satisfies Record<
  string,
  { retry: JobErrorRetry; retryable: boolean; description: string }
>;

export type JobErrorCode = keyof typeof JOB_ERRORS;

/** Each code's meaning: the words a failed job reports to its client. */
export const JOB_ERROR_CODES = Object.fromEntries(
  Object.entries(JOB_ERRORS).map(([code, { description }]) => [code, description]),
) as { readonly [C in JobErrorCode]: (typeof JOB_ERRORS)[C]['description'] };

/** The code's retry class; null for a string that is no job error code. */
export function jobErrorRetry(code: string): JobErrorRetry | null {
  return Object.hasOwn(JOB_ERRORS, code) ? JOB_ERRORS[code as JobErrorCode].retry : null;
}

/**
 * Whether running a job that failed with this code again may succeed (see `JOB_ERRORS`): the one
 * rule the API's retry and the console's Retry button follow. False for a string that is no code.
 */
export function isRetryableJobError(code: string | null): boolean {
  return (
    code !== null && Object.hasOwn(JOB_ERRORS, code) && JOB_ERRORS[code as JobErrorCode].retryable
  );
}
