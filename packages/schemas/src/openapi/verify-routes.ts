import { z } from 'zod';
import { RequestIdParams } from '../path-params.ts';
import { problemTypes } from '../problem-types.ts';
import { VerificationAccepted, VerificationJob, VerifyRequest } from '../verification.ts';
import { IdempotencyKey } from '../watermark-request.ts';
import { defineRoute } from './define-route.ts';
import { authenticatedCases, problemResponses } from './problem-responses.ts';
import { imageRefusals, imageRequestBody } from './public-verify-routes.ts';
import { bearerAuth } from './security.ts';

export function verifyRoutes() {
  const createVerification = defineRoute({
    method: 'post',
    path: '/verify',
    operationId: 'createVerification',
    tags: ['Verification'],
    summary: 'Verify an uploaded file (job)',
    description:
      'Upload the file as for watermarking (`POST /claim/file-upload-link`, then PUT), then ask for its verification; poll `GET /verify/{requestId}` for the report. Same statuses, errors and `Idempotency-Key` rules as watermark jobs.',
    security: bearerAuth,
    request: {
      headers: z.object({ 'Idempotency-Key': IdempotencyKey.optional() }),
      body: { required: true, content: { 'application/json': { schema: VerifyRequest } } },
    },
    responses: {
      202: {
        description: 'The verification was queued.',
        content: { 'application/json': { schema: VerificationAccepted } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: 'the body is not `{ fileId }`.' },
        { problem: problemTypes.notFound, when: 'this client has no file with this `fileId`.' },
        { problem: problemTypes.fileNotUploaded, when: 'the upload has not completed.' },
        { problem: problemTypes.fileDeleted, when: "retention deleted the file's bytes." },
        {
          problem: problemTypes.idempotencyKeyReused,
          when: 'the `Idempotency-Key` was already used with a different body.',
        },
        ...authenticatedCases,
      ]),
    },
  });

  const getVerification = defineRoute({
    method: 'get',
    path: '/verify/{requestId}',
    operationId: 'getVerification',
    tags: ['Verification'],
    summary: 'Get a verification and its report',
    description: 'Poll until `status` is `success` (read `result`) or `failed` (see `error`).',
    security: bearerAuth,
    request: { params: RequestIdParams },
    responses: {
      200: {
        description: 'The verification.',
        content: { 'application/json': { schema: VerificationJob } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: '`requestId` is not a UUID.' },
        { problem: problemTypes.notFound, when: 'this client has no such verification.' },
        ...authenticatedCases,
      ]),
    },
  });

  const getVerificationRegions = defineRoute({
    method: 'get',
    path: '/verify/{requestId}/regions.png',
    operationId: 'getVerificationRegions',
    tags: ['Verification'],
    summary: 'The verified copy with its edited regions outlined',
    description:
      'A PNG of the file verified by `POST /verify`, as stored (no EXIF rotation), with each of `result.content.regions` outlined: where the copy differs from the picture its mark was issued in. The file is kept `VERIFY_RETENTION_HOURS` after its last verification; an image sent to `POST /verify/file` is never kept, so draw its regions from the report (`hallmark verify --regions out.png`).',
    security: bearerAuth,
    'x-hallmark-sdk': 'hand-written',
    request: { params: RequestIdParams },
    responses: {
      200: {
        description: 'The copy with its regions outlined.',
        content: { 'image/png': { schema: { type: 'string', format: 'binary' } as never } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: '`requestId` is not a UUID.' },
        {
          problem: problemTypes.notFound,
          when: 'this client has no such verification, it is not finished, or it verified an image sent in the request (not kept).',
        },
        {
          problem: problemTypes.fileDeleted,
          when: 'the verified file was deleted by retention.',
        },
        ...authenticatedCases,
      ]),
    },
  });

  const verifyImage = defineRoute({
    method: 'post',
    path: '/verify/file',
    operationId: 'verifyImage',
    tags: ['Verification'],
    summary: 'Verify an image sent in the request, at once',
    description:
      'The image is the body (its image `Content-Type`, at most `VERIFY_SYNC_MAX_BYTES`, 10 MiB by default); the answer is the finished verification. The SDK sends it with `verifyImage(client, "copy.jpg")` (a path, bytes or a `Blob`), or `client.verifyImage(bytes, { contentType })`.',
    security: bearerAuth,
    request: { body: imageRequestBody },
    responses: {
      200: {
        description: 'The finished verification, with its report in `result`.',
        content: { 'application/json': { schema: VerificationJob } },
      },
      ...problemResponses([...imageRefusals('`MAX_IMAGE_PIXELS`'), ...authenticatedCases]),
    },
  });
  return { createVerification, getVerification, getVerificationRegions, verifyImage };
}
