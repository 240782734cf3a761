/**
 * The stable `error.code` values of a failed watermark job, with what each means. The worker
 * fails jobs only with these codes; clients may branch on them. Adding a code is compatible.
 */
export const JOB_ERROR_CODES = {
  invalid_image: 'The file could not be decoded as an image (corrupt or truncated).',
  unsupported_format: 'The image format cannot be watermarked.',
  image_too_small: 'The image is smaller than the invisible mark needs (256 px short side).',
  too_many_pixels: 'The image has more pixels than this deployment accepts.',
  processing_timeout: 'Processing the image took longer than this deployment allows.',
  technique_unavailable: 'A requested technique is not available on this deployment.',
  ipfs_unreachable: 'The IPFS node could not be reached after every retry.',
  nft_unavailable: 'This deployment has no blockchain configured for minting.',
  insufficient_funds: 'The minting wallet cannot pay the transaction fee.',
  mint_reverted: 'The NFT contract refused the mint.',
  rpc_unreachable: 'The blockchain RPC endpoint could not be reached after every retry.',
  mint_timeout: 'The mint transaction was not confirmed in time.',
  storage_full: "The service's storage is full; the output could not be stored.",
  internal_error: 'An unexpected failure persisted after every retry.',
  worker_crashed: 'The worker stopped while processing this image three times; it is not retried.',
  attempts_exhausted: 'Every attempt this deployment allows for a job was used without success.',
} as const;

export type JobErrorCode = keyof typeof JOB_ERROR_CODES;
