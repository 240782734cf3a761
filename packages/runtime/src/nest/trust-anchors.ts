import type { HallmarkConfig } from '@hallmark/config';
import { type DeploymentTrust, deploymentTrust } from '@hallmark/verification';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from './tokens.ts';

/**
 * The roots this deployment trusts when reading manifests. Resolved on first use and kept; while
 * the development identity does not exist yet (the worker makes it on its first start) it is
 * looked for again on the next verification.
 */
@Injectable()
export class TrustAnchors {
  #resolved: DeploymentTrust | undefined;

  constructor(@Inject(CONFIG) private readonly config: HallmarkConfig) {}

  async current(): Promise<DeploymentTrust> {
    const resolved = this.#resolved ?? (await deploymentTrust(this.config));
    // Kept once the development root is found (or not needed): see the class comment.
    if (resolved.trustAnchors !== undefined || this.config.C2PA_CERT_CHAIN_PATH !== undefined) {
      this.#resolved = resolved;
    }
    return resolved;
  }
}
