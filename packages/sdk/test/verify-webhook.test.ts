import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../src/index.ts';

// The reference vector of the Standard Webhooks specification (also Svix's): a fact to match,
// so that Hallmark's deliveries verify with any of that specification's libraries.
const vector = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  payload: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const headers = (signature = vector.signature, timestamp = String(vector.timestamp)) => ({
  'webhook-id': vector.id,
  'webhook-timestamp': timestamp,
  'webhook-signature': signature,
});
const at = { nowSeconds: vector.timestamp };

describe('verifyWebhook (Standard Webhooks)', () => {
  it('accepts the reference vector, from a Headers object too, and returns the body', async () => {
    expect(await verifyWebhook(vector.payload, headers(), vector.secret, at)).toEqual({
      test: 2432232314,
    });
    const viaHeaders = new Headers(headers());
    const bytes = new TextEncoder().encode(vector.payload);
    await expect(verifyWebhook(bytes, viaHeaders, vector.secret, at)).resolves.toBeDefined();
  });

  it('finds the matching one of several signatures and secrets (a rotation)', async () => {
    const several = `v1,bm9wZQ== ${vector.signature}`;
    await expect(
      verifyWebhook(vector.payload, headers(several), ['whsec_b3RoZXI=', vector.secret], at),
    ).resolves.toBeDefined();
  });

  it('refuses an altered body, another secret, an old timestamp and missing headers', async () => {
    const refusals = [
      () => verifyWebhook('{"test": 2432232315}', headers(), vector.secret, at),
      () => verifyWebhook(vector.payload, headers(), 'whsec_b3RoZXI=', at),
      () =>
        verifyWebhook(vector.payload, headers(), vector.secret, {
          nowSeconds: vector.timestamp + 301,
        }),
      () => verifyWebhook(vector.payload, headers('v2,anything'), vector.secret, at),
      () => verifyWebhook(vector.payload, { 'webhook-id': vector.id }, vector.secret, at),
    ];
    for (const refusal of refusals) {
      await expect(refusal()).rejects.toThrow(WebhookVerificationError);
    }
  });
});
