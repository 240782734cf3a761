import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSecret, sealSecret } from './sealed-secret.ts';

describe('sealed secrets', () => {
  const key = randomBytes(32);

  it('opens what it sealed, and seals the same secret differently each time', () => {
    const a = sealSecret(key, 'whsec_abc');
    expect(openSecret(key, a)).toBe('whsec_abc');
    expect(sealSecret(key, 'whsec_abc')).not.toBe(a);
    expect(a).not.toContain('abc');
  });

  it('refuses an altered value and another key', () => {
    const sealed = sealSecret(key, 'whsec_abc');
    const parts = sealed.split('.');
    const data = Buffer.from(parts[3] ?? '', 'base64url');
    data[0] = (data[0] ?? 0) ^ 1;
    parts[3] = data.toString('base64url');
    expect(() => openSecret(key, parts.join('.'))).toThrow();
    expect(() => openSecret(randomBytes(32), sealed)).toThrow();
    expect(() => openSecret(key, 'plain')).toThrow(/not a sealed secret/);
  });
});
