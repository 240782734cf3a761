import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// A secret the service must read back (a webhook's signing secret, a key request's key until
// its requester collects it) is stored sealed:
// AES-256-GCM under a key derived from HALLMARK_SECRET, so a copy of the database alone cannot
// sign for anyone. Format: v1.<iv>.<tag>.<ciphertext>, each base64url.

const VERSION = 'v1';

export function sealSecret(key: Uint8Array, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The plaintext; throws when the value was altered or sealed under another service secret. */
export function openSecret(key: Uint8Array, sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || iv === undefined || tag === undefined || data === undefined) {
    throw new Error('not a sealed secret');
  }
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(data, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}

/** Sealing and opening under one key, for code that is handed both and not the key. */
export function secretSealer(key: Uint8Array): {
  seal(plaintext: string): string;
  open(sealed: string): string;
} {
  return {
    seal: (plaintext) => sealSecret(key, plaintext),
    open: (sealed) => openSecret(key, sealed),
  };
}
