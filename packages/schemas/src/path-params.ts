import { z } from 'zod';
import { Cid } from './ipfs-record.ts';
import { TokenId } from './nft.ts';

/**
 * Path parameters, as objects so the API validates them with the same call as a body and the
 * OpenAPI document gets them from the same source.
 */
export const RequestIdParams = z.strictObject({
  requestId: z.uuid().meta({ description: 'The `requestId` answered by `POST /watermark`.' }),
});
export type RequestIdParams = z.infer<typeof RequestIdParams>;

export const TokenIdParams = z.strictObject({ tokenId: TokenId });
export type TokenIdParams = z.infer<typeof TokenIdParams>;

export const IpfsHashParams = z.strictObject({ ipfsHash: Cid });
export type IpfsHashParams = z.infer<typeof IpfsHashParams>;

export const TransferIdParams = z.strictObject({ transferId: z.uuid() });
