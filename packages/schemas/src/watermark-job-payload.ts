import { z } from 'zod';

/**
 * A `watermark` queue entry. It only says "look at this job row": the row in PostgreSQL holds
 * the request and the state, so an entry that runs twice or arrives late does no harm.
 *
 * Internal (never in the OpenAPI document), hence the `Schema` suffix that the HTTP contract's
 * schemas do not carry.
 */
export const watermarkJobPayloadSchema = z.strictObject({ requestId: z.uuid() });
export type WatermarkJobPayload = z.infer<typeof watermarkJobPayloadSchema>;

/** A `verify` queue entry: "look at this verification row", with the same guarantees. */
export const verifyJobPayloadSchema = z.strictObject({ requestId: z.uuid() });
export type VerifyJobPayload = z.infer<typeof verifyJobPayloadSchema>;
