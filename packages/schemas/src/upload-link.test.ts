import { describe, expect, it } from 'vitest';
import { UploadLink, UploadLinkRequest } from './upload-link.ts';

describe('UploadLinkRequest', () => {
  it('accepts an image announcement', () => {
    expect(UploadLinkRequest.parse({ contentType: 'image/jpeg', fileName: 'sunset.jpg' })).toEqual({
      contentType: 'image/jpeg',
      fileName: 'sunset.jpg',
    });
  });

  it.each(['image/svg+xml', 'image/vnd.microsoft.icon', 'IMAGE/PNG'])(
    'accepts media type %s',
    (contentType) => {
      expect(UploadLinkRequest.safeParse({ contentType, fileName: 'a.png' }).success).toBe(true);
    },
  );

  it.each([
    'jpeg',
    'image/',
    '/jpeg',
    'image/jpeg; charset=binary',
    'image/jp eg',
    'image/jpeg/extra',
  ])('refuses media type %j', (contentType) => {
    expect(UploadLinkRequest.safeParse({ contentType, fileName: 'a.jpg' }).success).toBe(false);
  });

  it.each([
    '',
    '.',
    '..',
    '../etc/passwd',
    'dir/a.jpg',
    'C:\\photos\\a.jpg',
    'a\u0000.jpg',
    'a\n.jpg',
    'x'.repeat(256),
  ])('refuses file name %j', (fileName) => {
    expect(UploadLinkRequest.safeParse({ contentType: 'image/png', fileName }).success).toBe(false);
  });

  it.each(['..hidden.jpg', 'my photo (1).jpg', 'фото.jpg'])('accepts file name %j', (fileName) => {
    expect(UploadLinkRequest.safeParse({ contentType: 'image/png', fileName }).success).toBe(true);
  });

  it('refuses unknown keys', () => {
    const result = UploadLinkRequest.safeParse({
      contentType: 'image/png',
      fileName: 'a.png',
      size: 10,
    });
    expect(result.success).toBe(false);
  });
});

describe('UploadLink', () => {
  it('refuses a link that is not http(s)', () => {
    const fileId = '3f0c2a52-8a51-4c4e-9d7e-0e6f7f4a1b2c';
    expect(UploadLink.safeParse({ fileId, uploadLink: 'javascript:alert(1)' }).success).toBe(false);
    expect(
      UploadLink.safeParse({ fileId, uploadLink: 'https://s.example/u?signature=x' }).success,
    ).toBe(true);
  });
});
