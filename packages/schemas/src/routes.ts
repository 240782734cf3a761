import { adminActivityRoutes } from './openapi/admin-activity-routes.ts';
import { adminRoutes } from './openapi/admin-routes.ts';
import { adminVerificationRoutes } from './openapi/admin-verification-routes.ts';
import { authRoutes } from './openapi/auth-routes.ts';
import { healthRoutes } from './openapi/health-routes.ts';
import { keyRequestRoutes } from './openapi/key-request-routes.ts';
import { publicVerifyRoutes } from './openapi/public-verify-routes.ts';
import { recordRoutes } from './openapi/record-routes.ts';
import { reportRoutes } from './openapi/report-routes.ts';
import { softBindingRoutes } from './openapi/soft-binding-routes.ts';
import { uploadRoutes } from './openapi/upload-routes.ts';
import { verifyRoutes } from './openapi/verify-routes.ts';
import { watermarkRoutes } from './openapi/watermark-routes.ts';
import { webhookRoutes } from './openapi/webhook-routes.ts';

export type { ApiRoute } from './openapi/define-route.ts';
export { webhookEvent } from './openapi/webhook-routes.ts';

/**
 * The route table: every operation of the API, keyed by its operationId, each defined once with
 * its method, path, parameters, body and answers. The OpenAPI document is generated from it (in
 * this order) and the API's handlers are mapped and validated by it.
 */
export const ROUTES = {
  ...authRoutes(),
  ...uploadRoutes(),
  ...watermarkRoutes(),
  ...recordRoutes(),
  ...verifyRoutes(),
  ...reportRoutes(),
  ...publicVerifyRoutes(),
  ...webhookRoutes(),
  ...softBindingRoutes(),
  ...keyRequestRoutes(),
  ...adminRoutes(),
  ...adminActivityRoutes(),
  ...adminVerificationRoutes(),
  ...healthRoutes(),
};

export type OperationId = keyof typeof ROUTES;
