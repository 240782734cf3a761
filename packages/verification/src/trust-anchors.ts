import { resolve } from 'node:path';
import { findDevelopmentIdentity, resolveTrustAnchors } from '@hallmark/watermark-core';

/**
 * The roots a deployment trusts when it reads manifests: C2PA_TRUST_ANCHORS_PATH (e.g. the C2PA
 * trust list), plus the development root under the data folder when this deployment signs with
 * the development identity, so that its own outputs read as trusted here (and only here).
 */
export async function deploymentTrustAnchors(config: {
  readonly C2PA_TRUST_ANCHORS_PATH?: string | undefined;
  readonly C2PA_CERT_CHAIN_PATH?: string | undefined;
  readonly HALLMARK_DATA_DIR: string;
}): Promise<string | undefined> {
  const development =
    config.C2PA_CERT_CHAIN_PATH === undefined
      ? await findDevelopmentIdentity(resolve(config.HALLMARK_DATA_DIR))
      : undefined;
  return resolveTrustAnchors({
    ...(config.C2PA_TRUST_ANCHORS_PATH === undefined
      ? {}
      : { bundlePath: config.C2PA_TRUST_ANCHORS_PATH }),
    ...(development === undefined ? {} : { bundlePem: development.rootCertificatePem }),
  });
}
