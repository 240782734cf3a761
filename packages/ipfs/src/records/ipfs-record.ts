import type { IpfsMetadata, WatermarkMetadata } from '@hallmark/schemas';
import { DATA_KEYS, type WatermarkFacts } from './watermark-facts.ts';

/**
 * The JSON document stored on IPFS for `storeIpfs: true` (the job's `metadata`): the `data` keys
 * the client supplied, then `watermarked`, `watermarkTypes` and `fileId`. The key order is fixed
 * because the bytes, and so the CID, follow it: the same job always stores the same document.
 */
export function buildIpfsRecord(facts: WatermarkFacts): IpfsMetadata {
  return {
    ...suppliedData(facts.data),
    watermarked: true,
    watermarkTypes: [...facts.watermarkTypes],
    fileId: facts.fileId,
  };
}

/** Only the keys that carry a value, in `DATA_KEYS` order. */
function suppliedData(data: WatermarkMetadata | undefined): WatermarkMetadata {
  const supplied: WatermarkMetadata = {};
  for (const key of DATA_KEYS) {
    const value = data?.[key];
    if (value !== undefined) supplied[key] = value;
  }
  return supplied;
}
