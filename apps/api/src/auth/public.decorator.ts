import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'hallmark:public';

export interface PublicOptions {
  /**
   * Count each request against the caller's address (RATE_LIMIT_ANONYMOUS_PER_MINUTE). Only the
   * liveness probe opts out: an orchestrator restarting a healthy process because it was limited
   * would be worse than the load.
   */
  readonly limited?: boolean;
  /** Public only when this setting is true. */
  readonly when?: 'SOFT_BINDING_API_PUBLIC';
}

/** Marks a route that needs no bearer token (probes, docs, signed storage and gateway links). */
export const Public = (options: PublicOptions = {}) =>
  SetMetadata(IS_PUBLIC, { limited: options.limited ?? true });

/**
 * A route that is public when the deployment says so (a boolean setting), and needs an API key
 * otherwise. Public, it is limited per address like every anonymous route.
 */
export const PublicWhen = (setting: 'SOFT_BINDING_API_PUBLIC') =>
  SetMetadata(IS_PUBLIC, { limited: true, when: setting });
