import { z } from 'zod';
import { problemTypes } from '../problem-types.ts';
import { defineRoute } from './define-route.ts';
import { authenticatedCases, problemResponses } from './problem-responses.ts';
import { bearerAuth } from './security.ts';

// The C2PA Soft Binding Resolution API 1.0.0, as its own OpenAPI document defines the paths,
// parameters and bodies (schemas named as there). Who may call it is a deployment setting
// (SOFT_BINDING_API_PUBLIC): an API key by default, or anyone, limited per address.

export const SoftBindingQuery = z
  .object({
    alg: z.string().meta({
      description: 'The soft binding algorithm and version, e.g. `dev.hallmark.invisible.3`.',
    }),
    value: z.string().meta({ description: 'The soft binding value, base64 (the mark: 8 bytes).' }),
  })
  .meta({ id: 'c2pa.softBindingQuery' });

export const SoftBindingQueryResult = z
  .object({
    matches: z.array(
      z.object({
        manifestId: z
          .string()
          .meta({ description: 'Unique identifier of a matched C2PA Manifest.' }),
        endpoint: z.string().optional(),
        similarityScore: z.int().min(0).max(100).optional(),
      }),
    ),
  })
  .meta({ id: 'c2pa.softBindingQueryResult' });

export const SoftBindingAlgList = z
  .object({
    watermarks: z.array(z.object({ alg: z.string() })),
    fingerprints: z.array(z.object({ alg: z.string() })),
  })
  .meta({ id: 'c2pa.softBindingAlgList' });

/** `urn:c2pa:<uuid>`, optionally with a claim generator and version suffix (C2PA 2.x). */
const MANIFEST_ID = /^urn:(c2pa|uuid):[0-9a-fA-F-]{36}(:[A-Za-z0-9._:-]{1,200})?$/;

const maxResults = z.coerce
  .number()
  .int()
  .min(1)
  .default(10)
  .meta({ description: 'The maximum number of manifests to return for each query.' });

const sdk = { 'x-hallmark-sdk': 'hand-written' } as const;
const tags = ['Soft Binding Resolution'];

export function softBindingRoutes() {
  const results = {
    200: {
      description: 'Successful operation',
      content: { 'application/json': { schema: SoftBindingQueryResult } },
    },
  };
  const queryByBinding = defineRoute({
    method: 'get',
    path: '/matches/byBinding',
    operationId: 'queryByBinding',
    tags,
    summary: 'Returns C2PA Manifest identifiers corresponding to a soft binding value',
    security: bearerAuth,
    ...sdk,
    request: {
      query: z.object({
        alg: SoftBindingQuery.shape.alg,
        value: SoftBindingQuery.shape.value,
        maxResults,
      }),
    },
    responses: {
      ...results,
      ...problemResponses([
        {
          problem: problemTypes.validationError,
          when: '`alg` or `value` is missing or malformed.',
        },
        ...authenticatedCases,
      ]),
    },
  });
  const queryByLargeBinding = defineRoute({
    method: 'post',
    path: '/matches/byBinding',
    operationId: 'queryByLargeBinding',
    tags,
    summary: 'Returns C2PA Manifest identifiers corresponding to a large soft binding value',
    security: bearerAuth,
    ...sdk,
    request: {
      query: z.object({ maxResults }),
      body: { required: true, content: { 'application/json': { schema: SoftBindingQuery } } },
    },
    responses: {
      ...results,
      ...problemResponses([
        {
          problem: problemTypes.validationError,
          when: '`alg` or `value` is missing or malformed.',
        },
        ...authenticatedCases,
      ]),
    },
  });
  const queryByContent = defineRoute({
    method: 'post',
    path: '/matches/byContent',
    operationId: 'queryByContent',
    tags,
    summary: 'Returns C2PA Manifest identifiers matching a digital asset',
    description: 'The service runs its own mark detector on the asset in the body.',
    security: bearerAuth,
    ...sdk,
    request: {
      query: z.object({ alg: z.string().optional(), maxResults }),
      body: {
        required: true,
        content: { 'image/*': { schema: { type: 'string', format: 'binary' } as never } },
      },
    },
    responses: {
      ...results,
      ...problemResponses([
        {
          problem: problemTypes.unsupportedMediaType,
          when: 'the body is not an image this service reads.',
        },
        {
          problem: problemTypes.payloadTooLarge,
          when: 'the body is over `VERIFY_SYNC_MAX_BYTES`.',
        },
        ...authenticatedCases,
      ]),
    },
  });
  const getManifestById = defineRoute({
    method: 'get',
    path: '/manifests/{manifestId}',
    operationId: 'getManifestById',
    tags,
    summary: 'Returns a full C2PA Manifest Store or an active C2PA Manifest',
    description:
      'The manifest store kept when the watermark job signed its output: it survives copies that lost their embedded manifest.',
    security: bearerAuth,
    ...sdk,
    request: {
      params: z.object({
        manifestId: z
          .string()
          .regex(MANIFEST_ID, 'Expected urn:c2pa:<uuid>')
          .meta({ description: 'Identifier of the C2PA Manifest to return' }),
      }),
      query: z.object({
        returnActiveManifest: z
          .enum(['true', 'false'])
          .optional()
          .meta({ description: 'Only the active manifest; by default the whole store.' }),
      }),
    },
    responses: {
      200: {
        description: 'Successful operation',
        content: { 'application/c2pa': { schema: { type: 'string', format: 'binary' } as never } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: 'Invalid C2PA Manifest Id supplied.' },
        { problem: problemTypes.notFound, when: 'C2PA Manifest Id not found.' },
        ...authenticatedCases,
      ]),
    },
  });
  const getSupportedAlgorithms = defineRoute({
    method: 'get',
    path: '/services/supportedAlgorithms',
    operationId: 'getSupportedAlgorithms',
    tags,
    summary: 'Returns lists of supported soft binding algorithms',
    security: bearerAuth,
    ...sdk,
    responses: {
      200: {
        description: 'Successful operation',
        content: { 'application/json': { schema: SoftBindingAlgList } },
      },
      ...problemResponses([...authenticatedCases]),
    },
  });
  return {
    queryByBinding,
    queryByLargeBinding,
    queryByContent,
    getManifestById,
    getSupportedAlgorithms,
  };
}
