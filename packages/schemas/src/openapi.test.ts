import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, serializeOpenApiDocument } from './openapi.ts';

const committedPath = new URL('../openapi.json', import.meta.url);
const document = buildOpenApiDocument();

type Operation = {
  operationId?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, unknown> }>;
};

function operations(): Array<[string, Operation]> {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]): [string, Operation] => [
      `${method.toUpperCase()} ${path}`,
      operation,
    ]),
  );
}

describe('openapi.json', () => {
  it('is up to date with the zod schemas', () => {
    const committed = readFileSync(committedPath, 'utf8');
    expect(
      committed === serializeOpenApiDocument(document),
      'packages/schemas/openapi.json is out of date: run `pnpm --filter @hallmark/schemas openapi:write` and commit the result',
    ).toBe(true);
  });

  it('is built deterministically', () => {
    expect(serializeOpenApiDocument(buildOpenApiDocument())).toBe(
      serializeOpenApiDocument(document),
    );
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    // As text, the form that is committed and served (an object would be mutated in place).
    const result = await validator.validate(serializeOpenApiDocument(document));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });
});

describe('the OpenAPI document', () => {
  it('names the API and takes its version from package.json', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(document.info).toMatchObject({ title: 'Hallmark API', version: manifest.version });
  });

  it('has exactly the operations of the contract, with their success status', () => {
    const summary = Object.fromEntries(
      operations().map(([route, operation]) => [
        operation.operationId,
        `${route} ${Object.keys(operation.responses)
          .filter((status) => /^[23]/.test(status))
          .join('/')}`,
      ]),
    );
    expect(summary).toEqual({
      createAccessToken: 'POST /auth/token 201',
      createUploadLink: 'POST /claim/file-upload-link 201',
      createWatermarkJob: 'POST /watermark 202',
      getWatermarkJob: 'GET /watermark/{requestId} 200',
      createWatermarkBatch: 'POST /watermark/batches 202',
      getWatermarkBatch: 'GET /watermark/batches/{batchId} 200',
      getNft: 'GET /nft/{tokenId} 200',
      getIpfsRecord: 'GET /ipfs/{ipfsHash} 200',
      deleteIpfsRecord: 'DELETE /ipfs/{ipfsHash} 204',
      listIpfsRecords: 'GET /ipfs 200',
      listNfts: 'GET /nft 200',
      transferNft: 'POST /nft/{tokenId}/transfer 202',
      getNftTransfer: 'GET /nft/transfers/{transferId} 200',
      createVerification: 'POST /verify 202',
      getVerification: 'GET /verify/{requestId} 200',
      getVerificationRegions: 'GET /verify/{requestId}/regions.png 200',
      verifyImage: 'POST /verify/file 200',
      getVerificationReport: 'GET /verify/{requestId}/report 200',
      getVerificationReportPage: 'GET /verify/{requestId}/report.html 200',
      getVerificationCrJson: 'GET /verify/{requestId}/crjson 200',
      getReportKeys: 'GET /.well-known/hallmark-report-keys 200',
      getPublicVerifySettings: 'GET /public/verify 200',
      verifyImagePublicly: 'POST /public/verify 200',
      createWebhookEndpoint: 'POST /webhooks 201',
      listWebhookEndpoints: 'GET /webhooks 200',
      deleteWebhookEndpoint: 'DELETE /webhooks/{endpointId} 204',
      rotateWebhookSecret: 'POST /webhooks/{endpointId}/rotate-secret 200',
      listWebhookDeliveries: 'GET /webhooks/{endpointId}/deliveries 200',
      redeliverWebhook: 'POST /webhooks/{endpointId}/deliveries/{deliveryId}/redeliver 202',
      queryByBinding: 'GET /matches/byBinding 200',
      queryByLargeBinding: 'POST /matches/byBinding 200',
      queryByContent: 'POST /matches/byContent 200',
      getManifestById: 'GET /manifests/{manifestId} 200',
      getSupportedAlgorithms: 'GET /services/supportedAlgorithms 200',
      createKeyRequest: 'POST /key-requests 202',
      getKeyRequest: 'GET /key-requests/{requestId} 200',
      collectKeyRequestKey: 'POST /key-requests/{requestId}/key 201',
      signIn: 'POST /admin/session 201',
      getSession: 'GET /admin/session 200',
      signOut: 'DELETE /admin/session 204',
      listKeyRequests: 'GET /admin/key-requests 200',
      approveKeyRequest: 'POST /admin/key-requests/{requestId}/approve 200',
      rejectKeyRequest: 'POST /admin/key-requests/{requestId}/reject 200',
      listApiKeys: 'GET /admin/api-keys 200',
      createApiKey: 'POST /admin/api-keys 201',
      revokeApiKey: 'POST /admin/api-keys/{prefix}/revoke 200',
      reissueApiKey: 'POST /admin/api-keys/{prefix}/reissue 201',
      setApiKeyWallet: 'PUT /admin/api-keys/{prefix}/wallet 200',
      setApiKeyRateLimit: 'PUT /admin/api-keys/{prefix}/rate-limit 200',
      getOverview: 'GET /admin/overview 200',
      listJobs: 'GET /admin/jobs 200',
      getJob: 'GET /admin/jobs/{requestId} 200',
      retryJob: 'POST /admin/jobs/{requestId}/retry 200',
      listAllNfts: 'GET /admin/nfts 200',
      listAllIpfsRecords: 'GET /admin/ipfs-records 200',
      listAllWebhookEndpoints: 'GET /admin/webhooks 200',
      listEndpointDeliveries: 'GET /admin/webhooks/{endpointId}/deliveries 200',
      listAudit: 'GET /admin/audit 200',
      listOperators: 'GET /admin/operators 200',
      changeOperator: 'PATCH /admin/operators/{operatorId} 200',
      signOutOperator: 'POST /admin/operators/{operatorId}/sign-out 200',
      resetOperatorPassword: 'POST /admin/operators/{operatorId}/password-reset 200',
      getActivity: 'GET /admin/activity 200',
      getApiKeyUsage: 'GET /admin/api-keys/{prefix}/usage 200',
      listVerifications: 'GET /admin/verifications 200',
      getAdminVerification: 'GET /admin/verifications/{requestId} 200',
      getAdminVerificationReport: 'GET /admin/verifications/{requestId}/report 200',
      verifyImageAsOperator: 'POST /admin/verifications 201',
      getHealth: 'GET /health 200',
      getReadiness: 'GET /ready 200',
    });
  });

  it('requires the bearer token everywhere but on the probes, the key requests, the report keys, public verification and the admin API (its cookie)', () => {
    const security = Object.fromEntries(
      operations().map(([, operation]) => [operation.operationId, operation.security]),
    );
    for (const [operationId, requirement] of Object.entries(security)) {
      const open = [
        'getHealth',
        'getReadiness',
        'createKeyRequest',
        'getKeyRequest',
        'collectKeyRequestKey',
        'signIn',
        'getReportKeys',
        'getPublicVerifySettings',
        'verifyImagePublicly',
      ];
      const admin = [
        'getSession',
        'signOut',
        'listKeyRequests',
        'approveKeyRequest',
        'rejectKeyRequest',
        'listApiKeys',
        'createApiKey',
        'revokeApiKey',
        'reissueApiKey',
        'setApiKeyWallet',
        'setApiKeyRateLimit',
        'getOverview',
        'getActivity',
        'getApiKeyUsage',
        'listJobs',
        'getJob',
        'retryJob',
        'listAllNfts',
        'listAllIpfsRecords',
        'listAllWebhookEndpoints',
        'listEndpointDeliveries',
        'listAudit',
        'listOperators',
        'changeOperator',
        'signOutOperator',
        'resetOperatorPassword',
        'listVerifications',
        'getAdminVerification',
        'getAdminVerificationReport',
        'verifyImageAsOperator',
      ];
      expect(requirement, operationId).toEqual(
        open.includes(operationId)
          ? []
          : admin.includes(operationId)
            ? [{ cookieAuth: [] }]
            : [{ bearerAuth: [] }],
      );
    }
    expect(document.components?.securitySchemes?.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });

  it('documents every error as application/problem+json with the Problem schema', () => {
    for (const [route, operation] of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (/^[23]/.test(status) || (route === 'GET /ready' && status === '503')) continue;
        expect(Object.keys(response.content ?? {}), `${route} ${status}`).toEqual([
          'application/problem+json',
        ]);
        expect(response.content?.['application/problem+json']).toMatchObject({
          schema: { $ref: '#/components/schemas/Problem' },
        });
      }
    }
  });

  it('lets POST /watermark carry an optional Idempotency-Key header', () => {
    const [, createWatermarkJob] =
      operations().find(([, operation]) => operation.operationId === 'createWatermarkJob') ?? [];
    expect(createWatermarkJob).toMatchObject({
      parameters: [{ in: 'header', name: 'Idempotency-Key', required: false }],
    });
  });

  it('closes every request object to unknown keys', () => {
    const schemas = document.components?.schemas ?? {};
    for (const name of [
      'UploadLinkRequest',
      'WatermarkRequest',
      'WatermarkOptions',
      'WatermarkMetadata',
    ]) {
      expect(schemas[name], name).toMatchObject({ additionalProperties: false });
    }
  });
});
