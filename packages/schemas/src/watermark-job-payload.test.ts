import { describe, expect, it } from 'vitest';
import { watermarkJobPayloadSchema } from './watermark-job-payload.ts';

describe('watermarkJobPayloadSchema', () => {
  it('carries only the requestId', () => {
    const requestId = '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d';
    expect(watermarkJobPayloadSchema.parse({ requestId })).toEqual({ requestId });
    expect(watermarkJobPayloadSchema.safeParse({ requestId: 'x' }).success).toBe(false);
    expect(watermarkJobPayloadSchema.safeParse({ requestId, options: {} }).success).toBe(false);
  });
});
