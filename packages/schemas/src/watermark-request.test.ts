import { describe, expect, it } from 'vitest';
import { toFieldErrors } from './validation-errors.ts';
import { WatermarkRequest } from './watermark-request.ts';

// A request naming every key, with plausible values.
const everyKey = {
  fileId: '3f0c2a52-8a51-4c4e-9d7e-0e6f7f4a1b2c',
  options: {
    watermarkType: ['invisible', 'c2pa'],
    data: {
      author: 'Ada Lovelace',
      creationDate: '2025-01-15',
      description: 'Sunset over the harbour',
      copyright: '© 2025 Ada Lovelace',
      licenseType: 'CC-BY-4.0',
    },
    mintNft: true,
    storeIpfs: true,
  },
};

function withOptions(options: Record<string, unknown>) {
  return { ...everyKey, options: { ...everyKey.options, ...options } };
}

function withData(data: Record<string, unknown>) {
  return withOptions({ data: { ...everyKey.options.data, ...data } });
}

/** The field errors the API would answer with, or [] when the input is valid. */
function errorsOf(input: unknown) {
  const result = WatermarkRequest.safeParse(input);
  return result.success ? [] : toFieldErrors(result.error);
}

describe('WatermarkRequest', () => {
  it('accepts a request naming every key unchanged', () => {
    expect(WatermarkRequest.parse(everyKey)).toEqual(everyKey);
  });

  it('accepts the minimal request: one technique, no data, no records', () => {
    expect(errorsOf({ fileId: everyKey.fileId, options: { watermarkType: ['c2pa'] } })).toEqual([]);
  });

  it('refuses unknown keys at every level, naming each one', () => {
    const input = {
      ...everyKey,
      extra: 1,
      options: { ...everyKey.options, colour: 'red', data: { author: 'A', camera: 'X100' } },
    };
    expect(errorsOf(input).map((error) => error.path)).toEqual(
      expect.arrayContaining(['extra', 'options.colour', 'options.data.camera']),
    );
    expect(errorsOf(input)).toHaveLength(3);
  });

  it.each([
    '2025-02-30',
    '2023-02-29',
    '2025-04-31',
    '2025-13-01',
    '2025-1-5',
    '15/01/2025',
    '2025-01-15T00:00:00Z',
  ])('refuses creationDate %s', (creationDate) => {
    expect(errorsOf(withData({ creationDate })).map((error) => error.path)).toEqual([
      'options.data.creationDate',
    ]);
  });

  it('accepts a leap day', () => {
    expect(errorsOf(withData({ creationDate: '2024-02-29' }))).toEqual([]);
  });

  it('refuses an empty watermarkType', () => {
    expect(errorsOf(withOptions({ watermarkType: [] })).map((error) => error.path)).toEqual([
      'options.watermarkType',
    ]);
  });

  it('refuses a repeated technique, pointing at the repeat', () => {
    expect(errorsOf(withOptions({ watermarkType: ['c2pa', 'invisible', 'c2pa'] }))).toEqual([
      { path: 'options.watermarkType[2]', message: 'Duplicate watermark type "c2pa"' },
    ]);
  });

  it('refuses an unknown technique', () => {
    expect(
      errorsOf(withOptions({ watermarkType: ['invisible', 'visible'] })).map((error) => error.path),
    ).toEqual(['options.watermarkType[1]']);
  });

  it('requires fileId to be a UUID and options to be present', () => {
    expect(errorsOf({ fileId: 'abc' }).map((error) => error.path)).toEqual(['fileId', 'options']);
  });

  it('bounds metadata lengths and refuses empty strings', () => {
    expect(errorsOf(withData({ author: 'a'.repeat(201) })).map((error) => error.path)).toEqual([
      'options.data.author',
    ]);
    expect(errorsOf(withData({ copyright: '' })).map((error) => error.path)).toEqual([
      'options.data.copyright',
    ]);
  });

  it('refuses non-boolean flags', () => {
    expect(errorsOf(withOptions({ mintNft: 'yes' })).map((error) => error.path)).toEqual([
      'options.mintNft',
    ]);
  });
});
