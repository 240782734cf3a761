import { z } from 'zod';
import { HttpUrl } from './common/http-url.ts';
import { MEDIA_TYPES, type MediaKind } from './media-format.ts';

/**
 * A media type `type/subtype` (RFC 6838 restricted names), without parameters: the file is
 * stored and served with exactly this type. Which types are accepted is deployment
 * configuration, so the API answers 415 for a well-formed type it does not process.
 */
export const MediaType = z
  .string()
  .max(255)
  .regex(/^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/, {
    error: 'Expected a media type such as image/jpeg',
  })
  .meta({ description: 'Media type of the file, e.g. `image/jpeg`.', examples: ['image/jpeg'] });

/**
 * The client's name for the file. It ends up in storage keys, the C2PA manifest and the NFT
 * image URI, so it must be a single path segment: no separators, no `.`/`..`, no control
 * characters.
 */
export const FileName = z
  .string()
  .min(1)
  .max(255)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this pattern refuses.
  .regex(/^(?!\.\.?$)[^/\\\u0000-\u001f\u007f]+$/, {
    error: 'Expected a file name without path separators or control characters',
  })
  .meta({
    description: 'File name without any path: no `/`, `\\`, control characters, `.` or `..`.',
    examples: ['sunset.jpg'],
  });

/** The accepted types by kind, for the API's documentation. */
function acceptedTypes(): string {
  const names = (kind: MediaKind, markable: boolean) =>
    MEDIA_TYPES.filter((type) => type.kind === kind && type.markable === markable)
      .map((type) => `\`${type.mimeType}\``)
      .join(', ');
  return `images that can carry the invisible mark ${names('image', true)}; other images, signed (\`c2pa\`) only, ${names('image', false)}; video that can carry it ${names('video', true)}; other video, signed only, ${names('video', false)}; audio, signed only, ${names('audio', false)}`;
}

/** Body of `POST /claim/file-upload-link`. */
export const UploadLinkRequest = z
  .strictObject({
    contentType: MediaType.meta({
      description: `Media type of the file. Accepted (any other answers 415): ${acceptedTypes()}.`,
      examples: ['image/jpeg', 'video/mp4', 'audio/wav'],
    }),
    fileName: FileName,
  })
  .meta({
    id: 'UploadLinkRequest',
    description:
      'Announces a file to upload. The upload must send `Content-Type` equal to `contentType`.',
    examples: [{ contentType: 'image/jpeg', fileName: 'sunset.jpg' }],
  });
export type UploadLinkRequest = z.infer<typeof UploadLinkRequest>;

/** where to PUT the bytes of a new file. */
export const UploadLink = z
  .strictObject({
    fileId: z.uuid().meta({ description: 'Identifier of the file; pass it to `POST /watermark`.' }),
    uploadLink: HttpUrl.meta({
      description:
        'Absolute URL on the storage address; PUT the raw bytes there. Authorized by its `signature` query parameter, not by the bearer token.',
    }),
  })
  .meta({
    id: 'UploadLink',
    description: 'A signed, single-file upload URL and the id of the file it creates.',
    examples: [
      {
        fileId: '3f0c2a52-8a51-4c4e-9d7e-0e6f7f4a1b2c',
        uploadLink:
          'https://storage.example.com/files/3f0c2a52-8a51-4c4e-9d7e-0e6f7f4a1b2c?expires=1767225600&signature=5d41402abc4b2a76',
      },
    ],
  });
export type UploadLink = z.infer<typeof UploadLink>;
