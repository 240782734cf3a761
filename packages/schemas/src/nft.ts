import { z } from 'zod';
import { HttpUrl } from './common/http-url.ts';
import { UnixSeconds } from './common/unix-seconds.ts';

/**
 * An ERC-721 style token id: a uint256 written in decimal (at most 78 digits). Leading zeros are
 * refused so that each token has exactly one spelling in URLs and database keys.
 */
export const TokenId = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,77})$/, { error: 'Expected a decimal token id without leading zeros' })
  .meta({ description: 'Token id as a decimal string.', examples: ['42'] });

export const NftAttribute = z
  .strictObject({
    trait_type: z.string().min(1).max(100),
    value: z.string().max(2000),
  })
  .meta({
    id: 'NftAttribute',
    description: 'One marketplace trait (ERC-721 metadata convention).',
  });
export type NftAttribute = z.infer<typeof NftAttribute>;

/** The image lives in IPFS next to the metadata, so marketplaces resolve it without our API. */
export const NftImageUri = z
  .string()
  .max(512)
  .regex(/^ipfs:\/\/[A-Za-z0-9]+\/[^/]+$/, { error: 'Expected ipfs://<hash>/<file name>' })
  .meta({ description: '`ipfs://<hash>/<file name>`.' });

export const NftMetadata = z
  .strictObject({
    name: z.string().min(1).max(200),
    description: z.string().max(2000),
    image: NftImageUri,
    attributes: z.array(NftAttribute),
  })
  .meta({ id: 'NftMetadata', description: 'NFT metadata as read by marketplaces.' });
export type NftMetadata = z.infer<typeof NftMetadata>;

/** an NFT minted for a watermarked file (`options.mintNft`). */
export const Nft = z
  .strictObject({
    tokenId: TokenId,
    contract: z.string().min(1).max(128).meta({ description: 'NFT contract address.' }),
    blockchain: z
      .string()
      .min(1)
      .max(64)
      .meta({ description: 'Network the NFT was minted on.', examples: ['polygon-amoy'] }),
    owner: z.string().min(1).max(128).meta({ description: 'Wallet address of the owner.' }),
    ownerAsOf: UnixSeconds.meta({
      description:
        'Hallmark extension: when `owner` was last read from the chain, Unix seconds. Reads are served from that copy and refresh it in the background, so an unreachable chain never fails them.',
    }),
    metadata: NftMetadata,
    marketplaceUrl: HttpUrl.meta({ description: 'Where to view the NFT on a marketplace.' }),
    mintedAt: UnixSeconds.meta({ description: 'When it was minted, Unix seconds.' }),
  })
  .meta({
    id: 'Nft',
    description: 'An NFT recording the metadata of a watermarked file.',
    examples: [
      {
        tokenId: '42',
        contract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
        blockchain: 'polygon-amoy',
        owner: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        ownerAsOf: 1736942460,
        metadata: {
          name: 'sunset.jpg',
          description: 'Sunset over the harbour',
          image: 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/sunset.jpg',
          attributes: [{ trait_type: 'author', value: 'Ada Lovelace' }],
        },
        marketplaceUrl:
          'https://testnets.opensea.io/assets/amoy/0x5FbDB2315678afecb367f032d93F642f64180aa3/42',
        mintedAt: 1736942400,
      },
    ],
  });
export type Nft = z.infer<typeof Nft>;

export const NftPage = z
  .strictObject({
    items: z.array(Nft),
    nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page.' }),
  })
  .meta({ id: 'NftPage' });

export const NftTransferRequest = z
  .strictObject({
    to: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, 'Expected a 0x-prefixed 20-byte address')
      .refine((address) => !/^0x0{40}$/.test(address), 'The zero address burns tokens')
      .meta({ description: 'The wallet that receives the token.' }),
  })
  .meta({ id: 'NftTransferRequest' });
export type NftTransferRequest = z.infer<typeof NftTransferRequest>;

export const NftTransfer = z
  .strictObject({
    transferId: z.uuid(),
    tokenId: z.string(),
    to: z.string(),
    status: z.enum(['pending', 'sent', 'confirmed', 'failed']).meta({
      description:
        '`sent`: the transaction is on its way (recorded before it was broadcast, never sent twice); `confirmed`: mined, the owner is `to`.',
    }),
    transactionHash: z.string().nullable(),
    createdAt: z.int(),
    confirmedAt: z.int().nullable(),
    error: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
  })
  .meta({ id: 'NftTransfer', description: 'A token moved out of the custody wallet.' });
export type NftTransfer = z.infer<typeof NftTransfer>;
