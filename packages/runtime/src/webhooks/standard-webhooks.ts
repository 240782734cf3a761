import { createHmac, randomBytes } from 'node:crypto';

// Standard Webhooks (https://www.standardwebhooks.com): a delivery carries `webhook-id`,
// `webhook-timestamp` (Unix seconds) and `webhook-signature`, space-separated `v1,<base64>`
// entries, each an HMAC-SHA256 of `id.timestamp.body` under a secret `whsec_<base64 key>`.

const PREFIX = 'whsec_';

/** A new signing secret: 24 random bytes, as the specification's examples use. */
export function generateWebhookSecret(): string {
  return `${PREFIX}${randomBytes(24).toString('base64')}`;
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** The `webhook-signature` value: one `v1,` entry per secret (several while a rotation overlaps). */
export function signWebhook(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): string {
  return secrets
    .map((secret) => {
      const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`);
      return `v1,${mac.digest('base64')}`;
    })
    .join(' ');
}
