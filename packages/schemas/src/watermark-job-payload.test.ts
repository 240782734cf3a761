import { describe, expect, it } from 'vitest';
import { watermarkJobPayloadSchema } from './watermark-job-payload.ts';

describe('watermarkJobPayloadSchema', () => {
  const requestId = '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d';

  it('carries the requestId and nothing of the request', () => {
    expect(watermarkJobPayloadSchema.parse({ requestId })).toEqual({ requestId });
    expect(watermarkJobPayloadSchema.safeParse({ requestId: 'x' }).success).toBe(false);
    expect(watermarkJobPayloadSchema.safeParse({ requestId, options: {} }).success).toBe(false);
  });

  it('may carry a W3C trace context, and only a well-formed one', () => {
    const trace = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' };
    expect(watermarkJobPayloadSchema.parse({ requestId, trace })).toEqual({ requestId, trace });
    for (const traceparent of ['00-4bf92f35-00f067aa0ba902b7-01', 'anything']) {
      expect(
        watermarkJobPayloadSchema.safeParse({ requestId, trace: { traceparent } }).success,
      ).toBe(false);
    }
    expect(
      watermarkJobPayloadSchema.safeParse({ requestId, trace: { ...trace, baggage: 'x' } }).success,
    ).toBe(false);
  });
});
