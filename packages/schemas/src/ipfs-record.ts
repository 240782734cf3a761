import { z } from 'zod';
import { HttpUrl } from './common/http-url.ts';
import { UnixSeconds } from './common/unix-seconds.ts';
import { WatermarkMetadata } from './watermark-request.ts';

/**
 * A content identifier as IPFS prints it: CIDv0 (`Qm…`, base58btc) or CIDv1 in base32 (`b…`,
 * e.g. `bafy…`). Only the syntax is checked; other multibase spellings of CIDv1 are refused
 * because this service never produces them.
 */
export const Cid = z
  .string()
  .max(128)
  .regex(/^(Qm[1-9A-HJ-NP-Za-km-z]{44}|b[a-z2-7]{58,127})$/, {
    error: 'Expected an IPFS CID (Qm… or base32 b…)',
  })
  .meta({
    description: 'IPFS content identifier (CIDv0 `Qm…` or base32 CIDv1 `b…`).',
    examples: ['bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi'],
  });

/**
 * The metadata stored in IPFS: the `data` keys the client supplied plus provenance facts.
 * Spread rather than `.extend()`ed: an `allOf` of two closed (additionalProperties: false)
 * schemas would refuse every document in JSON Schema.
 */
export const IpfsMetadata = z
  .strictObject({
    ...WatermarkMetadata.shape,
    watermarked: z.boolean(),
    watermarkTypes: z.array(z.string()).meta({ description: 'Techniques that were applied.' }),
    fileId: z.uuid(),
  })
  .meta({
    id: 'IpfsMetadata',
    description:
      "The record's `metadata`: the supplied `data` keys plus what was done to which file.",
  });
export type IpfsMetadata = z.infer<typeof IpfsMetadata>;

/** the IPFS record of a watermarked file (`options.storeIpfs`). */
export const IpfsRecord = z
  .strictObject({
    ipfsHash: Cid,
    ipfsUrl: HttpUrl.meta({ description: 'Gateway URL `<gateway>/ipfs/<ipfsHash>`.' }),
    metadata: IpfsMetadata,
    storedAt: UnixSeconds.meta({ description: 'When it was stored, Unix seconds.' }),
  })
  .meta({
    id: 'IpfsRecord',
    description: 'Metadata of a watermarked file as stored in IPFS.',
    examples: [
      {
        ipfsHash: 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
        ipfsUrl:
          'https://ipfs.example.com/ipfs/bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
        metadata: {
          author: 'Ada Lovelace',
          creationDate: '2025-01-15',
          description: 'Sunset over the harbour',
          watermarked: true,
          watermarkTypes: ['invisible', 'c2pa'],
          fileId: '3f0c2a52-8a51-4c4e-9d7e-0e6f7f4a1b2c',
        },
        storedAt: 1736942400,
      },
    ],
  });
export type IpfsRecord = z.infer<typeof IpfsRecord>;

export const IpfsRecordPage = z
  .strictObject({
    items: z.array(IpfsRecord),
    nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page.' }),
  })
  .meta({ id: 'IpfsRecordPage' });
