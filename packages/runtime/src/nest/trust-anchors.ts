import type { HallmarkConfig } from '@hallmark/config';
import { deploymentTrustAnchors } from '@hallmark/verification';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from './tokens.ts';

/**
 * The roots this deployment trusts when reading manifests. Resolved on first use and kept; while
 * the development identity does not exist yet (the worker makes it on its first start) it is
 * looked for again on the next verification.
 */
@Injectable()
export class TrustAnchors {
  #resolved: string | undefined;

  constructor(@Inject(CONFIG) private readonly config: HallmarkConfig) {}

  async current(): Promise<string | undefined> {
    this.#resolved ??= await deploymentTrustAnchors(this.config);
    return this.#resolved;
  }
}
