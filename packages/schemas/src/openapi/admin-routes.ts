import { z } from 'zod';
import {
  AdminApiKey,
  AdminApiKeyCreate,
  AdminApiKeyPage,
  AdminIpfsRecordPage,
  AdminJob,
  AdminJobDetail,
  AdminJobPage,
  AdminJobQuery,
  AdminKeyRequest,
  AdminKeyRequestPage,
  AdminNftPage,
  AdminOperator,
  AdminOperatorChange,
  AdminOperatorList,
  AdminOverview,
  AdminRateLimit,
  AdminRejection,
  AdminSession,
  AdminSignIn,
  AdminWallet,
  AdminWebhookEndpointPage,
  ApiKeyPrefixParams,
  AuditPage,
  AuditQuery,
  OperatorIdParams,
} from '../admin.ts';
import { KeyRequestState } from '../key-request.ts';
import { PageQuery, pageQueryFields } from '../page-query.ts';
import { RequestIdParams } from '../path-params.ts';
import { problemTypes } from '../problem-types.ts';
import { EndpointIdParams, WebhookDeliveryPage } from '../webhook.ts';
import { defineRoute } from './define-route.ts';
import { type ProblemCase, pageAnswers, problemResponses } from './problem-responses.ts';
import { cookieAuth, noAuth } from './security.ts';

const tags = ['Admin'];

export const csrfHeader = z.object({
  'X-CSRF-Token': z.string().meta({ description: 'The `csrfToken` of the session.' }),
});

export const signedIn: ProblemCase[] = [
  { problem: problemTypes.unauthorized, when: 'no live session (sign in first).' },
  { problem: problemTypes.rateLimited, when: 'too many requests from this address.' },
];
export const changes: ProblemCase[] = [
  ...signedIn,
  {
    problem: problemTypes.forbidden,
    when: 'the `X-CSRF-Token` is missing or wrong, or the operator is a viewer; nothing changed.',
  },
];

/** The answers of a decision on a key request. */
const decisionAnswers = {
  200: {
    description: 'Decided (and audited; the requester is told by mail).',
    content: { 'application/json': { schema: AdminKeyRequest } },
  },
  ...problemResponses([
    { problem: problemTypes.validationError, when: 'a malformed id or reason.' },
    { problem: problemTypes.notFound, when: 'no such request.' },
    { problem: problemTypes.alreadyDecided, when: 'it was decided already.' },
    ...changes,
  ]),
};

export function adminRoutes() {
  const signIn = defineRoute({
    method: 'post',
    path: '/admin/session',
    operationId: 'signIn',
    tags,
    summary: 'Sign an operator in',
    description:
      'Sets the session cookie and answers the `csrfToken` to send with every change. Ten sign-ins per email and client address in 15 minutes; fifty failures from any addresses lock the account for 15 minutes, and a locked account answers as a wrong password does.',
    security: noAuth,
    request: { body: { required: true, content: { 'application/json': { schema: AdminSignIn } } } },
    responses: {
      201: { description: 'Signed in.', content: { 'application/json': { schema: AdminSession } } },
      ...problemResponses([
        { problem: problemTypes.validationError, when: 'the body is not `{email, password}`.' },
        {
          problem: problemTypes.unauthorized,
          when: 'wrong email or password, or the account is locked (the same answer).',
        },
        {
          problem: problemTypes.rateLimited,
          when: 'ten sign-ins to this email from this address in 15 minutes; see `Retry-After`.',
        },
        {
          problem: problemTypes.serviceUnavailable,
          when: 'the rate limiter (Redis) is away (`RATE_LIMIT_FAIL_CLOSED`); see `Retry-After`.',
        },
      ]),
    },
  });
  const getSession = defineRoute({
    method: 'get',
    path: '/admin/session',
    operationId: 'getSession',
    tags,
    summary: 'The signed-in operator',
    security: cookieAuth,
    responses: {
      200: {
        description: 'The session.',
        content: { 'application/json': { schema: AdminSession } },
      },
      ...problemResponses(signedIn),
    },
  });
  const signOut = defineRoute({
    method: 'delete',
    path: '/admin/session',
    operationId: 'signOut',
    tags,
    summary: 'Sign out',
    security: cookieAuth,
    request: { headers: csrfHeader },
    responses: {
      204: { description: 'Signed out; the cookie is cleared.' },
      ...problemResponses(changes),
    },
  });
  const listKeyRequests = defineRoute({
    method: 'get',
    path: '/admin/key-requests',
    operationId: 'listKeyRequests',
    tags,
    summary: 'Requests for API keys, oldest first',
    security: cookieAuth,
    request: {
      query: z.object({
        status: KeyRequestState.optional(),
        ...pageQueryFields,
      }),
    },
    responses: {
      200: {
        description: 'A page.',
        content: { 'application/json': { schema: AdminKeyRequestPage } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: 'a malformed query or cursor.' },
        ...signedIn,
      ]),
    },
  });
  const approveKeyRequest = defineRoute({
    method: 'post',
    path: '/admin/key-requests/{requestId}/approve',
    operationId: 'approveKeyRequest',
    tags,
    summary: 'Approve a request for an API key',
    security: cookieAuth,
    request: {
      params: RequestIdParams,
      headers: csrfHeader,
    },
    responses: decisionAnswers,
  });
  const rejectKeyRequest = defineRoute({
    method: 'post',
    path: '/admin/key-requests/{requestId}/reject',
    operationId: 'rejectKeyRequest',
    tags,
    summary: 'Reject a request for an API key, with the reason the requester reads',
    security: cookieAuth,
    request: {
      params: RequestIdParams,
      headers: csrfHeader,
      body: { required: true, content: { 'application/json': { schema: AdminRejection } } },
    },
    responses: decisionAnswers,
  });
  const keyChangeCases: ProblemCase[] = [
    { problem: problemTypes.validationError, when: 'a malformed prefix or body.' },
    { problem: problemTypes.notFound, when: 'no such key.' },
    ...changes,
  ];
  const listApiKeys = defineRoute({
    method: 'get',
    path: '/admin/api-keys',
    operationId: 'listApiKeys',
    tags,
    summary: 'API keys, oldest first',
    security: cookieAuth,
    request: {
      query: z.object({
        ...pageQueryFields,
      }),
    },
    responses: {
      200: { description: 'A page.', content: { 'application/json': { schema: AdminApiKeyPage } } },
      ...problemResponses([
        { problem: problemTypes.validationError, when: 'a malformed query or cursor.' },
        ...signedIn,
      ]),
    },
  });
  const createApiKey = defineRoute({
    method: 'post',
    path: '/admin/api-keys',
    operationId: 'createApiKey',
    tags,
    summary: 'Make an API key (shown in this answer only)',
    security: cookieAuth,
    request: {
      headers: csrfHeader,
      body: { required: true, content: { 'application/json': { schema: AdminApiKeyCreate } } },
    },
    responses: {
      201: {
        description: 'The key, with `apiKey`.',
        content: { 'application/json': { schema: AdminApiKey } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: 'the body is not `{ name }`.' },
        ...changes,
      ]),
    },
  });
  const revokeApiKey = defineRoute({
    method: 'post',
    path: '/admin/api-keys/{prefix}/revoke',
    operationId: 'revokeApiKey',
    tags,
    summary: 'Revoke an API key and its access tokens',
    security: cookieAuth,
    request: { params: ApiKeyPrefixParams, headers: csrfHeader },
    responses: {
      200: { description: 'Revoked.', content: { 'application/json': { schema: AdminApiKey } } },
      ...problemResponses([
        ...keyChangeCases,
        { problem: problemTypes.alreadyDecided, when: 'it was revoked already.' },
      ]),
    },
  });
  const reissueApiKey = defineRoute({
    method: 'post',
    path: '/admin/api-keys/{prefix}/reissue',
    operationId: 'reissueApiKey',
    tags,
    summary: 'Replace a key its requester has not collected yet',
    description:
      'For a key made by approving a key request and not yet collected: revokes it and makes a new one, which the requester collects at the same status link. The new key is not in the answer (only its requester sees it).',
    security: cookieAuth,
    request: { params: ApiKeyPrefixParams, headers: csrfHeader },
    responses: {
      201: {
        description: 'The new key (its prefix; `awaitingCollection`).',
        content: { 'application/json': { schema: AdminApiKey } },
      },
      ...problemResponses([
        ...keyChangeCases,
        {
          problem: problemTypes.keyNotAvailable,
          when: 'the key was not made for a key request, was collected already, or is revoked.',
        },
      ]),
    },
  });
  const setApiKeyWallet = defineRoute({
    method: 'put',
    path: '/admin/api-keys/{prefix}/wallet',
    operationId: 'setApiKeyWallet',
    tags,
    summary: "Set the wallet the key's NFTs are minted to",
    security: cookieAuth,
    request: {
      params: ApiKeyPrefixParams,
      headers: csrfHeader,
      body: { required: true, content: { 'application/json': { schema: AdminWallet } } },
    },
    responses: {
      200: { description: 'Set.', content: { 'application/json': { schema: AdminApiKey } } },
      ...problemResponses(keyChangeCases),
    },
  });
  const setApiKeyRateLimit = defineRoute({
    method: 'put',
    path: '/admin/api-keys/{prefix}/rate-limit',
    operationId: 'setApiKeyRateLimit',
    tags,
    summary: "Set the key's requests per minute",
    security: cookieAuth,
    request: {
      params: ApiKeyPrefixParams,
      headers: csrfHeader,
      body: { required: true, content: { 'application/json': { schema: AdminRateLimit } } },
    },
    responses: {
      200: { description: 'Set.', content: { 'application/json': { schema: AdminApiKey } } },
      ...problemResponses(keyChangeCases),
    },
  });
  const getOverview = defineRoute({
    method: 'get',
    path: '/admin/overview',
    operationId: 'getOverview',
    tags,
    summary: 'Dependencies, the queue, the last day of jobs, overdue key requests',
    security: cookieAuth,
    responses: {
      200: {
        description: 'The overview.',
        content: { 'application/json': { schema: AdminOverview } },
      },
      ...problemResponses(signedIn),
    },
  });
  const listJobs = defineRoute({
    method: 'get',
    path: '/admin/jobs',
    operationId: 'listJobs',
    tags,
    summary: "Every key's watermark jobs, newest first",
    security: cookieAuth,
    request: {
      query: AdminJobQuery,
    },
    responses: {
      200: { description: 'A page.', content: { 'application/json': { schema: AdminJobPage } } },
      ...problemResponses([
        { problem: problemTypes.validationError, when: 'a malformed filter or cursor.' },
        ...signedIn,
      ]),
    },
  });
  const getJob = defineRoute({
    method: 'get',
    path: '/admin/jobs/{requestId}',
    operationId: 'getJob',
    tags,
    summary: 'A job with its options, steps, error and before/after links',
    security: cookieAuth,
    request: { params: RequestIdParams },
    responses: {
      200: { description: 'The job.', content: { 'application/json': { schema: AdminJobDetail } } },
      ...problemResponses([
        { problem: problemTypes.validationError, when: '`requestId` is not a UUID.' },
        { problem: problemTypes.notFound, when: 'no such job.' },
        ...signedIn,
      ]),
    },
  });
  const retryJob = defineRoute({
    method: 'post',
    path: '/admin/jobs/{requestId}/retry',
    operationId: 'retryJob',
    tags,
    summary: 'Run a failed job again',
    security: cookieAuth,
    request: { params: RequestIdParams, headers: csrfHeader },
    responses: {
      200: { description: 'Queued again.', content: { 'application/json': { schema: AdminJob } } },
      ...problemResponses([
        { problem: problemTypes.validationError, when: '`requestId` is not a UUID.' },
        { problem: problemTypes.notFound, when: 'no such job.' },
        { problem: problemTypes.alreadyDecided, when: 'the job is not failed.' },
        {
          problem: problemTypes.jobNotRetryable,
          when: 'the job failed with a code another run would meet again (`retryable` is false: the picture itself caused it).',
        },
        ...changes,
      ]),
    },
  });
  const listAllNfts = defineRoute({
    method: 'get',
    path: '/admin/nfts',
    operationId: 'listAllNfts',
    tags,
    summary: 'Minted NFTs of every key, newest first',
    security: cookieAuth,
    request: { query: PageQuery },
    responses: pageAnswers(AdminNftPage, signedIn),
  });
  const listAllIpfsRecords = defineRoute({
    method: 'get',
    path: '/admin/ipfs-records',
    operationId: 'listAllIpfsRecords',
    tags,
    summary: 'IPFS records of every key, newest first',
    security: cookieAuth,
    request: { query: PageQuery },
    responses: pageAnswers(AdminIpfsRecordPage, signedIn),
  });
  const listAllWebhookEndpoints = defineRoute({
    method: 'get',
    path: '/admin/webhooks',
    operationId: 'listAllWebhookEndpoints',
    tags,
    summary: 'Webhook endpoints of every key, newest first, with their deliveries by status',
    description: 'Deleted endpoints are left out; disabled ones say why.',
    security: cookieAuth,
    request: { query: z.object({ ...pageQueryFields }) },
    responses: {
      200: {
        description: 'A page.',
        content: { 'application/json': { schema: AdminWebhookEndpointPage } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: 'a malformed query or cursor.' },
        ...signedIn,
      ]),
    },
  });
  const listEndpointDeliveries = defineRoute({
    method: 'get',
    path: '/admin/webhooks/{endpointId}/deliveries',
    operationId: 'listEndpointDeliveries',
    tags,
    summary: "An endpoint's deliveries, newest first, each with every attempt",
    security: cookieAuth,
    request: { params: EndpointIdParams, query: z.object({ ...pageQueryFields }) },
    responses: {
      200: {
        description: 'A page.',
        content: { 'application/json': { schema: WebhookDeliveryPage } },
      },
      ...problemResponses([
        { problem: problemTypes.validationError, when: 'a malformed id, query or cursor.' },
        { problem: problemTypes.notFound, when: 'no such endpoint.' },
        ...signedIn,
      ]),
    },
  });
  const listAudit = defineRoute({
    method: 'get',
    path: '/admin/audit',
    operationId: 'listAudit',
    tags,
    summary: 'The audit log, newest first',
    security: cookieAuth,
    request: { query: AuditQuery },
    responses: {
      200: { description: 'A page.', content: { 'application/json': { schema: AuditPage } } },
      ...problemResponses([
        { problem: problemTypes.validationError, when: 'a malformed query.' },
        ...signedIn,
      ]),
    },
  });
  const operatorChangeCases: ProblemCase[] = [
    ...changes,
    { problem: problemTypes.notFound, when: 'no such operator.' },
  ];
  const listOperators = defineRoute({
    method: 'get',
    path: '/admin/operators',
    operationId: 'listOperators',
    tags,
    summary: 'List the operators of the console',
    description: 'Every operator, oldest first, with role, state and live sessions (admins only).',
    security: cookieAuth,
    responses: {
      200: {
        description: 'The operators.',
        content: { 'application/json': { schema: AdminOperatorList } },
      },
      ...problemResponses([
        ...signedIn,
        { problem: problemTypes.forbidden, when: 'the operator is a viewer.' },
      ]),
    },
  });
  const changeOperator = defineRoute({
    method: 'patch',
    path: '/admin/operators/{operatorId}',
    operationId: 'changeOperator',
    tags,
    summary: "Change an operator's role, or disable or enable the account",
    description:
      'Disabling ends every session of the operator at once. The deployment keeps at least one enabled admin. Audited.',
    security: cookieAuth,
    request: {
      params: OperatorIdParams,
      headers: csrfHeader,
      body: { required: true, content: { 'application/json': { schema: AdminOperatorChange } } },
    },
    responses: {
      200: { description: 'Changed.', content: { 'application/json': { schema: AdminOperator } } },
      ...problemResponses([
        ...operatorChangeCases,
        { problem: problemTypes.validationError, when: 'the body has neither role nor disabled.' },
        {
          problem: problemTypes.lastAdmin,
          when: 'it would leave no enabled admin; nothing changed.',
        },
      ]),
    },
  });
  const signOutOperator = defineRoute({
    method: 'post',
    path: '/admin/operators/{operatorId}/sign-out',
    operationId: 'signOutOperator',
    tags,
    summary: 'End every session of an operator',
    security: cookieAuth,
    request: { params: OperatorIdParams, headers: csrfHeader },
    responses: {
      200: {
        description: 'Signed out.',
        content: { 'application/json': { schema: AdminOperator } },
      },
      ...problemResponses(operatorChangeCases),
    },
  });
  const resetOperatorPassword = defineRoute({
    method: 'post',
    path: '/admin/operators/{operatorId}/password-reset',
    operationId: 'resetOperatorPassword',
    tags,
    summary: 'Give an operator a new password',
    description:
      'A generated password, in this answer only; the lock after failed sign-ins is lifted and every session ends. Audited (without the password).',
    security: cookieAuth,
    request: { params: OperatorIdParams, headers: csrfHeader },
    responses: {
      200: {
        description: 'The new password is `password`.',
        content: { 'application/json': { schema: AdminOperator } },
      },
      ...problemResponses(operatorChangeCases),
    },
  });
  return {
    signIn,
    getSession,
    signOut,
    listKeyRequests,
    approveKeyRequest,
    rejectKeyRequest,
    listApiKeys,
    createApiKey,
    revokeApiKey,
    reissueApiKey,
    setApiKeyWallet,
    setApiKeyRateLimit,
    getOverview,
    listJobs,
    getJob,
    retryJob,
    listAllNfts,
    listAllIpfsRecords,
    listAllWebhookEndpoints,
    listEndpointDeliveries,
    listAudit,
    listOperators,
    changeOperator,
    signOutOperator,
    resetOperatorPassword,
  };
}
