import { problemTypes } from '../problem-types.ts';
import { UploadLink, UploadLinkRequest } from '../upload-link.ts';
import { defineRoute } from './define-route.ts';
import { authenticatedCases, problemResponses, storageQuotaCase } from './problem-responses.ts';
import { bearerAuth } from './security.ts';

export function uploadRoutes() {
  const createUploadLink = defineRoute({
    method: 'post',
    path: '/claim/file-upload-link',
    operationId: 'createUploadLink',
    tags: ['Uploads'],
    summary: 'Get a signed link to upload a file',
    description:
      'Returns a new `fileId` and a signed `uploadLink`. PUT the raw bytes to `uploadLink` with `Content-Type` equal to `contentType` before calling `POST /watermark`.',
    security: bearerAuth,
    request: {
      body: { required: true, content: { 'application/json': { schema: UploadLinkRequest } } },
    },
    responses: {
      201: {
        description: 'The upload link was created.',
        content: { 'application/json': { schema: UploadLink } },
      },
      ...problemResponses([
        {
          problem: problemTypes.validationError,
          when: 'the body is not a valid upload link request; `errors` lists each field.',
        },
        {
          problem: problemTypes.unsupportedMediaType,
          when: '`contentType` is well formed but not a format this deployment watermarks.',
        },
        storageQuotaCase,
        ...authenticatedCases,
      ]),
    },
  });
  return { createUploadLink };
}
