import { z } from 'zod';
import { RequestIdParams } from '../path-params.ts';
import { problemTypes } from '../problem-types.ts';
import { BatchIdParams, WatermarkBatch, WatermarkBatchRequest } from '../watermark-batch.ts';
import { WatermarkAccepted, WatermarkJob } from '../watermark-job.ts';
import { IdempotencyKey, WatermarkRequest } from '../watermark-request.ts';
import { defineRoute } from './define-route.ts';
import { authenticatedCases, problemResponses, storageQuotaCase } from './problem-responses.ts';
import { bearerAuth } from './security.ts';

export function watermarkRoutes() {
  const createWatermarkJob = defineRoute({
    method: 'post',
    path: '/watermark',
    operationId: 'createWatermarkJob',
    tags: ['Watermarking'],
    summary: 'Request watermarking of an uploaded file',
    description:
      'Queues a job and answers at once; poll `GET /watermark/{requestId}` for the result. Send an `Idempotency-Key` to make retries safe.',
    security: bearerAuth,
    request: {
      headers: z.object({ 'Idempotency-Key': IdempotencyKey.optional() }),
      body: { required: true, content: { 'application/json': { schema: WatermarkRequest } } },
    },
    responses: {
      202: {
        description:
          'The job was queued (or, for a repeated `Idempotency-Key`, was queued before).',
        content: { 'application/json': { schema: WatermarkAccepted } },
      },
      ...problemResponses([
        {
          problem: problemTypes.validationError,
          when: 'the body is not a valid watermark request (unknown keys included); `errors` lists each field.',
        },
        {
          problem: problemTypes.notFound,
          when: 'this client has no file with this `fileId`.',
        },
        {
          problem: problemTypes.fileNotUploaded,
          when: 'the file exists but its upload has not completed.',
        },
        {
          problem: problemTypes.markNotApplicable,
          when: '`watermarkType` has `invisible` and the file is of a kind that cannot carry it (audio, AVI video, and images other than JPEG, PNG, WebP, AVIF and TIFF); the detail names the kind. Nothing is queued.',
        },
        {
          problem: problemTypes.idempotencyKeyReused,
          when: 'the `Idempotency-Key` was already used with a different body.',
        },
        {
          problem: problemTypes.fileDeleted,
          when: "retention deleted the file's bytes; upload it again.",
        },
        storageQuotaCase,
        {
          problem: problemTypes.quotaExceeded,
          when: '`mintNft` and the key asked for as many NFTs today (UTC) as its quota allows (`quota: mints_per_day`, `limit`; `Retry-After` until midnight UTC).',
        },
        ...authenticatedCases,
      ]),
    },
  });

  const getWatermarkJob = defineRoute({
    method: 'get',
    path: '/watermark/{requestId}',
    operationId: 'getWatermarkJob',
    tags: ['Watermarking'],
    summary: 'Get the state of a watermarking job',
    description:
      'Poll until `status` is `success` (download `watermarkedUrl` before `expiredAt`) or `failed` (see `error`).',
    security: bearerAuth,
    request: { params: RequestIdParams },
    responses: {
      200: {
        description: 'The job.',
        content: { 'application/json': { schema: WatermarkJob } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: '`requestId` is not a UUID.' },
        { problem: problemTypes.notFound, when: 'this client has no job with this `requestId`.' },
        {
          problem: problemTypes.outputDeleted,
          when: "retention deleted the job's watermarked file (`RETENTION_OUTPUT_DAYS`).",
        },
        ...authenticatedCases,
      ]),
    },
  });

  const createWatermarkBatch = defineRoute({
    method: 'post',
    path: '/watermark/batches',
    operationId: 'createWatermarkBatch',
    tags: ['Watermarking'],
    summary: 'Request watermarking of many uploaded files at once',
    description:
      "Up to 100 items, each an uploaded file with its own options or the batch's. Every item is checked before anything is queued: one bad item refuses the batch, naming it (`items[i]`). Each item then runs as an ordinary job (a failed item does not fail the others); `batch.completed` is sent once when all have ended. Send an `Idempotency-Key` to make retries safe: the same key answers the batch it made first.",
    security: bearerAuth,
    request: {
      headers: z.object({ 'Idempotency-Key': IdempotencyKey.optional() }),
      body: {
        required: true,
        content: { 'application/json': { schema: WatermarkBatchRequest } },
      },
    },
    responses: {
      202: {
        description:
          'Queued (or, for a repeated `Idempotency-Key`, queued before); follow it with `GET /watermark/batches/{batchId}`.',
        content: { 'application/json': { schema: WatermarkBatch } },
      },
      ...problemResponses([
        {
          problem: problemTypes.validationError,
          when: 'a malformed body, more than 100 items, or an item without options; `errors` names each.',
        },
        {
          problem: problemTypes.idempotencyKeyReused,
          when: 'the `Idempotency-Key` was already used with a different body.',
        },
        { problem: problemTypes.notFound, when: 'an item names a file this client does not have.' },
        { problem: problemTypes.fileNotUploaded, when: "an item's upload has not completed." },
        {
          problem: problemTypes.markNotApplicable,
          when: 'an item asks for `invisible` on a file that cannot carry it; nothing is queued.',
        },
        { problem: problemTypes.fileDeleted, when: "retention deleted an item's bytes." },
        storageQuotaCase,
        {
          problem: problemTypes.quotaExceeded,
          when: 'the items that ask for `mintNft` exceed what is left of the NFT quota today.',
        },
        ...authenticatedCases,
      ]),
    },
  });

  const getWatermarkBatch = defineRoute({
    method: 'get',
    path: '/watermark/batches/{batchId}',
    operationId: 'getWatermarkBatch',
    tags: ['Watermarking'],
    summary: 'A batch: counts per status and each item',
    security: bearerAuth,
    request: { params: BatchIdParams },
    responses: {
      200: {
        description: 'The batch.',
        content: { 'application/json': { schema: WatermarkBatch } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: '`batchId` is not a UUID.' },
        { problem: problemTypes.notFound, when: 'this client has no such batch.' },
        ...authenticatedCases,
      ]),
    },
  });
  return { createWatermarkJob, getWatermarkJob, createWatermarkBatch, getWatermarkBatch };
}
