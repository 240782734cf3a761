import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatPath, toFieldErrors } from './validation-errors.ts';

describe('formatPath', () => {
  it('joins keys with dots and puts indexes in brackets', () => {
    expect(formatPath(['options', 'watermarkType', 1])).toBe('options.watermarkType[1]');
    expect(formatPath([0, 'a'])).toBe('[0].a');
    expect(formatPath([])).toBe('');
  });
});

describe('toFieldErrors', () => {
  it('gives each unknown key its own entry', () => {
    const result = z.strictObject({ a: z.string() }).safeParse({ a: 'x', b: 1, c: 2 });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(toFieldErrors(result.error)).toEqual([
      { path: 'b', message: 'Unknown field' },
      { path: 'c', message: 'Unknown field' },
    ]);
  });

  it('keeps the message of other issues', () => {
    const result = z.object({ n: z.number() }).safeParse({ n: 'x' });
    if (result.success) throw new Error('expected a failure');
    expect(toFieldErrors(result.error)).toEqual([
      { path: 'n', message: expect.stringContaining('expected number') },
    ]);
  });
});
