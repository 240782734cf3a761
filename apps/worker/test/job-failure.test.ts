import { describe, expect, it } from 'vitest';
import {
  asPermanentFailure,
  finalFailureCode,
  PermanentJobFailure,
} from '../src/watermark/job-failure.ts';

function coded(code: string, extra: object = {}): Error {
  return Object.assign(new Error(`failed: ${code}`), { code }, extra);
}

describe('job failure classes', () => {
  it('fails at once on a permanent code, with the code its words', () => {
    const failure = asPermanentFailure(coded('invalid_image'));
    expect(failure).toBeInstanceOf(PermanentJobFailure);
    expect(failure?.code).toBe('invalid_image');
    expect(failure?.message).toContain('could not be decoded');
  });

  it('retries transient codes, retryable errors and unknown failures', () => {
    expect(asPermanentFailure(coded('rpc_unreachable'))).toBeNull();
    expect(asPermanentFailure(coded('internal_error'))).toBeNull();
    expect(asPermanentFailure(coded('mint_reverted', { retryable: true }))).toBeNull();
    expect(asPermanentFailure(coded('ENOENT'))).toBeNull();
    expect(asPermanentFailure(new Error('boom'))).toBeNull();
  });

  it('ends a job with the error code it had, else internal_error', () => {
    expect(finalFailureCode(coded('ipfs_unreachable'))).toBe('ipfs_unreachable');
    expect(finalFailureCode(new Error('boom'))).toBe('internal_error');
  });
});
