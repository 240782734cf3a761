import type { WatermarkMetadata } from '@hallmark/schemas';

/** What the worker knows about a watermarked file when it writes its IPFS and NFT records. */
export interface WatermarkFacts {
  /** The request's `options.data` (already validated); only its supplied keys are recorded. */
  readonly data?: WatermarkMetadata | undefined;
  /** The techniques applied, in the order requested. */
  readonly watermarkTypes: readonly string[];
  readonly fileId: string;
}

/** Every `data` key, in the order records list them (the request schema's order). */
export const DATA_KEYS = [
  'author',
  'creationDate',
  'description',
  'copyright',
  'licenseType',
] as const satisfies readonly (keyof WatermarkMetadata)[];

// Fails to compile when the request schema gains a `data` key that is not placed above.
type AssertNever<T extends never> = T;
export type EveryDataKeyPlaced = AssertNever<
  Exclude<keyof WatermarkMetadata, (typeof DATA_KEYS)[number]>
>;
