import { z } from 'zod';

/**
 * The W3C trace context of the request that queued an entry, when the deployment traces
 * (OTEL_EXPORTER_OTLP_ENDPOINT): the worker's spans join the request's trace.
 */
export const traceContextSchema = z.strictObject({
  traceparent: z.string().regex(/^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/),
  tracestate: z.string().max(512).optional(),
});
export type TraceContext = z.infer<typeof traceContextSchema>;

/**
 * A `watermark` queue entry. It only says "look at this job row": the row in PostgreSQL holds
 * the request and the state, so an entry that runs twice or arrives late does no harm.
 *
 * Internal (never in the OpenAPI document), hence the `Schema` suffix that the HTTP contract's
 * schemas do not carry.
 */
export const watermarkJobPayloadSchema = z.strictObject({
  requestId: z.uuid(),
  trace: traceContextSchema.optional(),
});
export type WatermarkJobPayload = z.infer<typeof watermarkJobPayloadSchema>;

/** A `verify` queue entry: "look at this verification row", with the same guarantees. */
export const verifyJobPayloadSchema = z.strictObject({
  requestId: z.uuid(),
  trace: traceContextSchema.optional(),
});
export type VerifyJobPayload = z.infer<typeof verifyJobPayloadSchema>;
