import { describe, expect, it } from 'vitest';
import { toFieldErrors } from './validation-errors.ts';
import { WatermarkAccepted, WatermarkJob } from './watermark-job.ts';

const ids = {
  requestId: '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d',
  fileId: '3f0c2a52-8a51-4c4e-9d7e-0e6f7f4a1b2c',
};
const download = { watermarkedUrl: 'https://s.example/w?signature=x', expiredAt: 1767225600 };
const error = { code: 'unsupported_image', message: 'The file is not a decodable image.' };

function errorPaths(input: unknown): string[] {
  const result = WatermarkJob.safeParse(input);
  return result.success ? [] : toFieldErrors(result.error).map((issue) => issue.path);
}

describe('WatermarkJob', () => {
  it.each([
    ['pending', {}],
    ['processing', {}],
    ['success', download],
    ['failed', { error }],
  ])('accepts a %s job with exactly its fields', (status, fields) => {
    expect(errorPaths({ status, ...ids, ...fields })).toEqual([]);
  });

  it('requires the download on success', () => {
    expect(errorPaths({ status: 'success', ...ids })).toEqual(['watermarkedUrl', 'expiredAt']);
  });

  it('sends the download only on success', () => {
    expect(errorPaths({ status: 'pending', ...ids, ...download })).toEqual([
      'watermarkedUrl',
      'expiredAt',
    ]);
  });

  it('requires an error when failed, and only then', () => {
    expect(errorPaths({ status: 'failed', ...ids })).toEqual(['error']);
    expect(errorPaths({ status: 'success', ...ids, ...download, error })).toEqual(['error']);
  });

  it('refuses a fractional or negative expiredAt', () => {
    expect(errorPaths({ status: 'success', ...ids, ...download, expiredAt: 1.5 })).toContain(
      'expiredAt',
    );
    expect(errorPaths({ status: 'success', ...ids, ...download, expiredAt: -1 })).toContain(
      'expiredAt',
    );
  });
});

describe('WatermarkAccepted', () => {
  it('is always pending', () => {
    expect(WatermarkAccepted.safeParse({ status: 'pending', ...ids }).success).toBe(true);
    expect(WatermarkAccepted.safeParse({ status: 'success', ...ids }).success).toBe(false);
  });
});
