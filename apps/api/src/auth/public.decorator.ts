import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'hallmark:public';

export interface PublicOptions {
  /**
   * Count each request against the caller's address (RATE_LIMIT_ANONYMOUS_PER_MINUTE). Only the
   * liveness probe opts out: an orchestrator restarting a healthy process because it was limited
   * would be worse than the load.
   */
  readonly limited?: boolean;
}

/** Marks a route that needs no bearer token (probes, docs, signed storage and gateway links). */
export const Public = (options: PublicOptions = {}) =>
  SetMetadata(IS_PUBLIC, { limited: options.limited ?? true });
