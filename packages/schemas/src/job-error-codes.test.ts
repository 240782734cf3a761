import { describe, expect, it } from 'vitest';
import { JOB_ERROR_CODES, jobErrorRetry } from './job-error-codes.ts';

describe('job error codes', () => {
  it('retries only the failures another attempt may fix', () => {
    const transient = Object.keys(JOB_ERROR_CODES).filter(
      (code) => jobErrorRetry(code) === 'transient',
    );
    expect(transient.sort()).toEqual([
      'insufficient_funds',
      'internal_error',
      'ipfs_unreachable',
      'mint_timeout',
      'rpc_unreachable',
      'signing_unavailable',
      'timestamp_unavailable',
    ]);
    expect(jobErrorRetry('invalid_image')).toBe('permanent');
  });

  it('knows no class for a string that is no code', () => {
    expect(jobErrorRetry('toString')).toBeNull();
    expect(jobErrorRetry('no_such_code')).toBeNull();
  });

  it('describes each code in words', () => {
    expect(JOB_ERROR_CODES.storage_full).toBe(
      "The service's storage is full; the output could not be stored.",
    );
  });
});
