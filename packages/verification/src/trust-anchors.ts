import { resolve } from 'node:path';
import { findDevelopmentIdentity, resolveTrustAnchors } from '@hallmark/watermark-core';

/** The PEM bundles a deployment reads manifests against (see deploymentTrust). */
export interface DeploymentTrust {
  /** The operator's own roots: a signer chaining to one reads `trustedBy: operator_anchors`. */
  readonly trustAnchors: string | undefined;
  /** The public list adopted, with time-stamp authorities' roots: `trustedBy: trust_list`. */
  readonly trustList: string | undefined;
}

/**
 * The roots a deployment trusts when it reads manifests. Its own: C2PA_TRUST_ANCHORS_PATH, plus
 * the development root under the data folder while this deployment signs with the development
 * identity, so that its own outputs read as trusted here (and only here). The list it adopts:
 * C2PA_TRUST_LIST_PATH (e.g. the C2PA Trust List) and C2PA_TSA_TRUST_ANCHORS_PATH (the roots of
 * the time-stamp authorities whose time it trusts, e.g. the C2PA TSA Trust List).
 */
export async function deploymentTrust(config: {
  readonly C2PA_TRUST_ANCHORS_PATH?: string | undefined;
  readonly C2PA_TRUST_LIST_PATH?: string | undefined;
  readonly C2PA_TSA_TRUST_ANCHORS_PATH?: string | undefined;
  readonly C2PA_CERT_CHAIN_PATH?: string | undefined;
  readonly HALLMARK_DATA_DIR: string;
}): Promise<DeploymentTrust> {
  const development =
    config.C2PA_CERT_CHAIN_PATH === undefined
      ? await findDevelopmentIdentity(resolve(config.HALLMARK_DATA_DIR))
      : undefined;
  const trustAnchors = await resolveTrustAnchors({
    ...(config.C2PA_TRUST_ANCHORS_PATH === undefined
      ? {}
      : { bundlePath: config.C2PA_TRUST_ANCHORS_PATH }),
    ...(development === undefined ? {} : { bundlePem: development.rootCertificatePem }),
  });
  const trustList = await resolveTrustAnchors({
    bundlePaths: [config.C2PA_TRUST_LIST_PATH, config.C2PA_TSA_TRUST_ANCHORS_PATH].filter(
      (path): path is string => path !== undefined,
    ),
  });
  return { trustAnchors, trustList };
}
