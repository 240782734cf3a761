import { RequestIdParams } from '../path-params.ts';
import { problemTypes } from '../problem-types.ts';
import { CrJson, ReportKeySet, SignedVerificationReport } from '../signed-report.ts';
import { defineRoute } from './define-route.ts';
import { authenticatedCases, problemResponses } from './problem-responses.ts';
import { bearerAuth, noAuth } from './security.ts';

/** Why a signed report, as JSON or as a page, may not be given, whoever asks. */
export const reportRefusals = (whose: string) => [
  { problem: problemTypes.validationError, when: '`requestId` is not a UUID.' },
  {
    problem: problemTypes.notFound,
    when: `${whose} no such verification, or it has not succeeded.`,
  },
  {
    problem: problemTypes.reportUnavailable,
    when: 'the verification was recorded before reports named the file they speak of.',
  },
  {
    problem: problemTypes.serviceUnavailable,
    when: 'C2PA_TSA_URL is set and the time-stamp authority did not answer: no report goes unstamped; see `Retry-After`.',
  },
];

const reportCases = [...reportRefusals('this client has'), ...authenticatedCases];

export function reportRoutes() {
  const getVerificationReport = defineRoute({
    method: 'get',
    path: '/verify/{requestId}/report',
    operationId: 'getVerificationReport',
    tags: ['Verification'],
    summary: 'A signed report of a verification, to keep and check offline',
    description:
      "The verdict on the file this verification examined, named by its SHA-256, signed by the deployment's report key: a JWS whose payload is a `VerificationStatement`. Save it byte for byte; `hallmark report check report.json [image] --trust root.pem` or the SDK's `checkReport` verify it without the service. Each call signs anew (the statement's `issuedAt` changes, the verdict does not).",
    security: bearerAuth,
    request: { params: RequestIdParams },
    responses: {
      200: {
        description: 'The signed report.',
        content: { 'application/json': { schema: SignedVerificationReport } },
      },
      ...problemResponses(reportCases),
    },
  });

  const getVerificationReportPage = defineRoute({
    method: 'get',
    path: '/verify/{requestId}/report.html',
    operationId: 'getVerificationReportPage',
    tags: ['Verification'],
    summary: 'The signed report as a page for people, with how to check it',
    description:
      'A self-contained HTML page: what the report states, how to check it, and the signed report itself, verbatim (in `<script type="application/json" id="hallmark-signed-report">`), so `hallmark report check page.html image --trust root.pem` checks the saved page. The page\'s text is not signed; the embedded report is.',
    security: bearerAuth,
    'x-hallmark-sdk': 'hand-written',
    request: { params: RequestIdParams },
    responses: {
      200: {
        description: 'The report page.',
        content: { 'text/html': { schema: { type: 'string' } as never } },
      },
      ...problemResponses(reportCases),
    },
  });

  const getVerificationCrJson = defineRoute({
    method: 'get',
    path: '/verify/{requestId}/crjson',
    operationId: 'getVerificationCrJson',
    tags: ['Verification'],
    summary: "The verified file's C2PA manifest store as crJSON",
    description:
      "crJSON, the C2PA's JSON report of a manifest store (schema: docs/c2pa/crJSON-schema.json), validated against this deployment's trust anchors and trust list, of the file uploaded for `POST /verify` (kept `VERIFY_RETENTION_HOURS` after its last verification). An image sent to `POST /verify/file` is not kept: run `hallmark inspect --crjson` on it instead. A file without a manifest answers an empty `manifests`.",
    security: bearerAuth,
    request: { params: RequestIdParams },
    responses: {
      200: {
        description: 'The crJSON document.',
        content: { 'application/json': { schema: CrJson } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: '`requestId` is not a UUID.' },
        {
          problem: problemTypes.notFound,
          when: 'this client has no such verification, it has not succeeded, or it verified an image sent in the request (not kept).',
        },
        { problem: problemTypes.fileDeleted, when: 'the verified file was deleted by retention.' },
        {
          problem: problemTypes.imageUnreadable,
          when: 'the manifest store of the file cannot be decoded, or the file (a movie) is larger than `UPLOAD_MAX_BYTES`, which crJSON is made within.',
        },
        ...authenticatedCases,
      ]),
    },
  });

  const getReportKeys = defineRoute({
    method: 'get',
    path: '/.well-known/hallmark-report-keys',
    operationId: 'getReportKeys',
    tags: ['Verification'],
    summary: 'The keys verification reports are signed with',
    description:
      "A JWK Set of the report signing keys, each with its certificate chain (`x5c`). A key marked `development` is the deployment's development identity: trust it nowhere else.",
    security: noAuth,
    responses: {
      200: {
        description: 'The report keys.',
        content: { 'application/json': { schema: ReportKeySet } },
      },
      ...problemResponses([]),
    },
  });
  return {
    getVerificationReport,
    getVerificationReportPage,
    getVerificationCrJson,
    getReportKeys,
  };
}
