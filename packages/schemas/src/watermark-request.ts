import { z } from 'zod';
import { boundedText } from './common/bounded-text.ts';
import { CalendarDate } from './common/calendar-date.ts';

/** The two techniques: `invisible` (the image mark) and `c2pa` (the signed manifest). */
export const WatermarkType = z.enum(['invisible', 'c2pa']).meta({
  id: 'WatermarkType',
  description:
    '`invisible`: a mark in the pixels that survives resizing and compression. `c2pa`: C2PA provenance metadata. Using both is recommended: a mismatch between them at verification time can reveal tampering.',
});
export type WatermarkType = z.infer<typeof WatermarkType>;

/**
 * Non-empty and without repeats: a repeated technique would be applied twice, and the
 * techniques asked for are a set.
 */
export const WatermarkTypes = z
  .array(WatermarkType)
  .min(1, { error: 'Expected at least one watermark type' })
  .superRefine((items, ctx) => {
    items.forEach((item, index) => {
      if (items.indexOf(item) !== index) {
        ctx.addIssue({
          code: 'custom',
          message: `Duplicate watermark type "${item}"`,
          path: [index],
          input: item,
        });
      }
    });
  })
  .meta({ uniqueItems: true, description: 'Techniques to apply; at least one, no repeats.' });

/** `options.data`: client metadata embedded in the C2PA manifest, IPFS and NFT records. */
export const WatermarkMetadata = z
  .strictObject({
    author: boundedText(200).optional(),
    creationDate: CalendarDate.optional(),
    description: boundedText(2000).optional(),
    copyright: boundedText(500).optional(),
    licenseType: boundedText(100).optional(),
  })
  .meta({
    id: 'WatermarkMetadata',
    description: 'Custom metadata to embed (`options.data`). Every key is optional.',
  });
export type WatermarkMetadata = z.infer<typeof WatermarkMetadata>;

/** `options` of a watermark request. */
export const WatermarkOptions = z
  .strictObject({
    watermarkType: WatermarkTypes,
    data: WatermarkMetadata.optional(),
    mintNft: z
      .boolean()
      .optional()
      .meta({ description: 'true records the metadata on a blockchain as an NFT.' }),
    storeIpfs: z.boolean().optional().meta({ description: 'true stores the metadata in IPFS.' }),
  })
  .meta({ id: 'WatermarkOptions', description: 'What to apply and which records to create.' });
export type WatermarkOptions = z.infer<typeof WatermarkOptions>;

/** The records a job makes besides its file: minting also stores the IPFS record it points at. */
export function requestedRecords(options: Pick<WatermarkOptions, 'storeIpfs' | 'mintNft'>): {
  ipfs: boolean;
  nft: boolean;
} {
  return {
    ipfs: options.storeIpfs === true || options.mintNft === true,
    nft: options.mintNft === true,
  };
}

/** Body of `POST /watermark`. */
export const WatermarkRequest = z
  .strictObject({
    fileId: z.uuid().meta({ description: 'From `POST /claim/file-upload-link`.' }),
    options: WatermarkOptions,
  })
  .meta({
    id: 'WatermarkRequest',
    description:
      'Asks for an uploaded file to be watermarked. Unknown keys are refused at every level.',
    examples: [
      {
        fileId: '3f0c2a52-8a51-4c4e-9d7e-0e6f7f4a1b2c',
        options: {
          watermarkType: ['invisible', 'c2pa'],
          data: {
            author: 'Ada Lovelace',
            creationDate: '2025-01-15',
            description: 'Sunset over the harbour',
            copyright: '© 2025 Ada Lovelace',
            licenseType: 'CC-BY-4.0',
          },
          mintNft: false,
          storeIpfs: true,
        },
      },
    ],
  });
export type WatermarkRequest = z.infer<typeof WatermarkRequest>;

/**
 * Optional `Idempotency-Key` header of `POST /watermark`: a retried request with the same key
 * returns the job created the first time instead of creating a second one. Visible ASCII only,
 * because the key is compared byte for byte and stored.
 */
export const IdempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/, { error: 'Expected visible ASCII characters only' })
  .meta({
    description:
      'Client-chosen key (e.g. a UUID). Retrying with the same key and body returns the original 202 answer; reusing it with a different body is refused with 422 (`idempotency-key-reused`).',
    examples: ['8e2c9d4e-7b1a-4f7e-9a55-2f9f3f1d0c11'],
  });
export type IdempotencyKey = z.infer<typeof IdempotencyKey>;
