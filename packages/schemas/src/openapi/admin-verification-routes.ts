import {
  AdminVerificationDetail,
  AdminVerificationPage,
  AdminVerificationQuery,
} from '../admin-verification.ts';
import { RequestIdParams } from '../path-params.ts';
import { problemTypes } from '../problem-types.ts';
import { SignedVerificationReport } from '../signed-report.ts';
import { changes, csrfHeader, signedIn } from './admin-routes.ts';
import { defineRoute } from './define-route.ts';
import { problemResponses } from './problem-responses.ts';
import { imageRefusals, imageRequestBody } from './public-verify-routes.ts';
import { reportRefusals } from './report-routes.ts';
import { cookieAuth } from './security.ts';

const tags = ['Admin'];

export function adminVerificationRoutes() {
  const listVerifications = defineRoute({
    method: 'get',
    path: '/admin/verifications',
    operationId: 'listVerifications',
    tags,
    summary: 'Every verification (by keys, on the public page, by operators), newest first',
    security: cookieAuth,
    request: { query: AdminVerificationQuery },
    responses: {
      200: {
        description: 'A page.',
        content: { 'application/json': { schema: AdminVerificationPage } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: 'a malformed filter or cursor.' },
        ...signedIn,
      ]),
    },
  });
  const getAdminVerification = defineRoute({
    method: 'get',
    path: '/admin/verifications/{requestId}',
    operationId: 'getAdminVerification',
    tags,
    summary: 'A verification with its ids and its report as the public page shows it',
    security: cookieAuth,
    request: { params: RequestIdParams },
    responses: {
      200: {
        description: 'The verification.',
        content: { 'application/json': { schema: AdminVerificationDetail } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: '`requestId` is not a UUID.' },
        { problem: problemTypes.notFound, when: 'no such verification.' },
        ...signedIn,
      ]),
    },
  });
  const verifyImageAsOperator = defineRoute({
    method: 'post',
    path: '/admin/verifications',
    operationId: 'verifyImageAsOperator',
    tags,
    summary: 'Verify an image in the console (admins)',
    description:
      'The image is the body, as for `POST /verify/file` (at most `VERIFY_SYNC_MAX_BYTES`, `MAX_IMAGE_PIXELS`); verified at once, never stored, and recorded with origin `console` and the operator.',
    security: cookieAuth,
    request: { headers: csrfHeader, body: imageRequestBody },
    responses: {
      201: {
        description: 'The recorded verification.',
        content: { 'application/json': { schema: AdminVerificationDetail } },
      },
      ...problemResponses([...imageRefusals('`MAX_IMAGE_PIXELS`'), ...changes]),
    },
  });
  const getAdminVerificationReport = defineRoute({
    method: 'get',
    path: '/admin/verifications/{requestId}/report',
    operationId: 'getAdminVerificationReport',
    tags,
    summary: 'The signed report of any verification, for the console to hand out',
    description:
      'The same signed report as `GET /verify/{requestId}/report`, for any verification that succeeded: by a key, on the public page or in the console. It names no key, job or file, so an operator may give it to whoever asked. Save it byte for byte.',
    security: cookieAuth,
    request: { params: RequestIdParams },
    responses: {
      200: {
        description: 'The signed report.',
        content: { 'application/json': { schema: SignedVerificationReport } },
      },
      ...problemResponses([...reportRefusals('there is'), ...signedIn]),
    },
  });
  return {
    listVerifications,
    getAdminVerification,
    getAdminVerificationReport,
    verifyImageAsOperator,
  };
}
