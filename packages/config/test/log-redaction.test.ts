import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../src/index.ts';

describe('redactSecrets', () => {
  it('removes link signatures, S3 credentials, bearer tokens, access tokens and key secrets', () => {
    const key = `hm_abcdefgh_${'A'.repeat(43)}`;
    const line = JSON.stringify({
      msg: 'request failed',
      err: {
        message: `GET http://h/storage/uploads/x.jpg?expires=1&signature=SiGnAtUrE failed`,
        stack: `at https://bucket.s3/k?X-Amz-Credential=AKIA%2F&X-Amz-Signature=abc123&x=1`,
      },
      headers: { authorization: 'Bearer hmat_eyJ.sig', other: key },
    });
    const redacted = redactSecrets(line);
    for (const secret of ['SiGnAtUrE', 'abc123', 'AKIA', 'hmat_eyJ', 'A'.repeat(43)]) {
      expect(redacted).not.toContain(secret);
    }
    // What an operator needs to find the request stays.
    expect(redacted).toContain('/storage/uploads/x.jpg?expires=1&signature=[redacted]');
    expect(redacted).toContain('hm_abcdefgh_[redacted]');
    expect(redacted).toContain('&x=1');
    expect(JSON.parse(redacted)).toMatchObject({ msg: 'request failed' });
  });

  it("removes a PKCS#11 URI's inline PIN and keeps the rest of the URI", () => {
    const line = 'pkcs11:token=hallmark;object=c2pa?module-path=/usr/lib/p11.so&pin-value=123456';
    expect(redactSecrets(line)).toBe(
      'pkcs11:token=hallmark;object=c2pa?module-path=/usr/lib/p11.so&pin-value=[redacted]',
    );
  });

  it('leaves a line without secrets as it was', () => {
    const line = '{"msg":"request","url":"/watermark/abc","status":200}';
    expect(redactSecrets(line)).toBe(line);
  });
});
