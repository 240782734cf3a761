import { describe, expect, it } from 'vitest';
import { IMAGE_FORMATS, mimeTypeOf } from './image-format.ts';
import { MEDIA_TYPES, mediaTypeFor, mediaTypeOf } from './media-format.ts';

describe('MEDIA_TYPES', () => {
  it('has one row per format and per MIME type', () => {
    const formats = MEDIA_TYPES.map((type) => type.format);
    const mimeTypes = MEDIA_TYPES.map((type) => type.mimeType);
    expect(new Set(formats).size).toBe(formats.length);
    expect(new Set(mimeTypes).size).toBe(mimeTypes.length);
  });

  it('marks only the containers the pixel engines re-encode, and MP4 frame by frame', () => {
    const markable = MEDIA_TYPES.filter((type) => type.markable).map((type) => type.format);
    expect(markable).toEqual(['jpeg', 'png', 'webp', 'avif', 'tiff', 'mp4', 'mov']);
  });

  it('streams only the movies c2pa-node signs in bounded memory', () => {
    const streamed = MEDIA_TYPES.filter((type) => type.streamed).map((type) => type.format);
    expect(streamed).toEqual(['mp4', 'mov', 'm4a']);
  });

  it('is the table the raster image view answers from', () => {
    for (const format of IMAGE_FORMATS) {
      expect(mediaTypeFor(format)).toMatchObject({ kind: 'image', mimeType: mimeTypeOf(format) });
    }
  });

  it.each([
    ['mp4', 'video/mp4', 'video', 'mp4'],
    ['mov', 'video/quicktime', 'video', 'mov'],
    ['avi', 'video/x-msvideo', 'video', 'avi'],
    ['m4a', 'audio/mp4', 'audio', 'm4a'],
    ['mp3', 'audio/mpeg', 'audio', 'mp3'],
    ['wav', 'audio/wav', 'audio', 'wav'],
    ['flac', 'audio/flac', 'audio', 'flac'],
    ['svg', 'image/svg+xml', 'image', 'svg'],
    ['dng', 'image/x-adobe-dng', 'image', 'dng'],
    ['jxl', 'image/jxl', 'image', 'jxl'],
    ['jpeg', 'image/jpeg', 'image', 'jpg'],
  ] as const)('%s is %s, %s, .%s', (format, mimeType, kind, extension) => {
    expect(mediaTypeFor(format)).toMatchObject({ format, mimeType, kind });
    expect(mediaTypeFor(format).extensions[0]).toBe(extension);
  });
});

describe('mediaTypeOf', () => {
  it('finds canonical MIME types whatever their case, ignoring parameters', () => {
    expect(mediaTypeOf('VIDEO/MP4')?.format).toBe('mp4');
    expect(mediaTypeOf('audio/mp4; codecs="mp4a.40.2"')?.format).toBe('m4a');
    expect(mediaTypeOf(' image/svg+xml ')?.format).toBe('svg');
  });

  it.each(['audio/x-wav', 'video/avi', 'audio/x-flac', 'application/pdf', 'image/bmp', ''])(
    'knows no row for %j (aliases are not canonical)',
    (mimeType) => {
      expect(mediaTypeOf(mimeType)).toBeUndefined();
    },
  );
});
