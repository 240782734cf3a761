import { describe, expect, it } from 'vitest';
import { isRetryableJobError, JOB_ERROR_CODES, jobErrorRetry } from './job-error-codes.ts';

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

  it('lets a failed job run again unless the picture itself caused the failure', () => {
    const codes = Object.keys(JOB_ERROR_CODES);
    expect(codes.filter((code) => !isRetryableJobError(code)).sort()).toEqual([
      'image_too_small',
      'invalid_image',
      'too_many_pixels',
      'unsupported_format',
      'worker_crashed',
    ]);
    // What the worker retries by itself, a run started by hand may get past too.
    for (const code of codes.filter((code) => jobErrorRetry(code) === 'transient')) {
      expect(isRetryableJobError(code), code).toBe(true);
    }
    for (const code of [null, 'toString', 'no_such_code']) {
      expect(isRetryableJobError(code)).toBe(false);
    }
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
