import type { NftAttribute, NftMetadata } from '@hallmark/schemas';
import type { CID } from 'multiformats/cid';
import { assertEntryName } from '../content-path.ts';
import { DATA_KEYS, type WatermarkFacts } from './watermark-facts.ts';

export interface NftMetadataInput extends WatermarkFacts {
  readonly name: string;
  readonly description: string;
  /** The directory that holds the watermarked file (`addDirectory`). */
  readonly dirCid: CID;
  /** The file's entry name in that directory. */
  readonly fileName: string;
}

/**
 * The ERC-721 metadata JSON a token's URI points at. `image` is `ipfs://<dirCid>/<fileName>`, the
 * form wallets and marketplaces resolve through any gateway, and keeps the file name (and so its
 * type) visible. Attributes are strings, in a fixed order: the supplied `data` keys except
 * `description` (already the top-level field), then the techniques and the file id.
 */
export function buildNftMetadata(input: NftMetadataInput): NftMetadata {
  const data = input.data ?? {};
  const attributes: NftAttribute[] = [
    ...DATA_KEYS.flatMap((key) => {
      const value = data[key];
      return key === 'description' || value === undefined ? [] : [{ trait_type: key, value }];
    }),
    { trait_type: 'watermarkTypes', value: input.watermarkTypes.join(', ') },
    { trait_type: 'fileId', value: input.fileId },
  ];
  return {
    name: input.name,
    description: input.description,
    image: `ipfs://${input.dirCid}/${encodeURIComponent(assertEntryName(input.fileName))}`,
    attributes,
  };
}
