import { describe, expect, it } from 'vitest';
import { LinkSigner } from '../src/index.ts';

const signer = new LinkSigner(new Uint8Array(32).fill(7));
const claims = { method: 'PUT', key: 'uploads/abc/photo.jpg', expires: 2_000 } as const;

describe('LinkSigner', () => {
  it('accepts its own signature before the expiry', () => {
    expect(signer.verify(claims, signer.sign(claims), 1_999)).toBe('valid');
  });

  it('reports an expired link once the expiry is reached', () => {
    expect(signer.verify(claims, signer.sign(claims), 2_000)).toBe('expired');
  });

  it('refuses a link whose method, key or expiry was changed', () => {
    const signature = signer.sign(claims);
    expect(signer.verify({ ...claims, method: 'GET' }, signature, 0)).toBe('bad_signature');
    expect(signer.verify({ ...claims, key: 'uploads/abd/photo.jpg' }, signature, 0)).toBe(
      'bad_signature',
    );
    expect(signer.verify({ ...claims, expires: 9_999 }, signature, 0)).toBe('bad_signature');
  });

  it('refuses a signature made with another key', () => {
    const other = new LinkSigner(new Uint8Array(32).fill(8));
    expect(signer.verify(claims, other.sign(claims), 0)).toBe('bad_signature');
    expect(signer.verify(claims, 'short', 0)).toBe('bad_signature');
  });
});
