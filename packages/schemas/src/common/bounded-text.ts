import { z } from 'zod';

/**
 * Free text supplied by a client, with an upper bound so one request cannot bloat a C2PA
 * manifest, an IPFS record or an NFT's metadata. Empty strings are refused: an empty author or
 * copyright carries no information and is almost always a client bug.
 */
export function boundedText(maxLength: number) {
  return z.string().min(1).max(maxLength);
}
