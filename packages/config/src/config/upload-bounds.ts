import type { HallmarkConfig } from './schema.ts';

/**
 * Uploads still `uploading` since before this moment were left by a process that died
 * mid-upload: no request may run longer than HTTP_REQUEST_TIMEOUT_MS, and no link to them is
 * valid longer than UPLOAD_LINK_TTL_SECONDS. Their links may be used again.
 */
export function staleUploadBound(
  config: Pick<HallmarkConfig, 'UPLOAD_LINK_TTL_SECONDS' | 'HTTP_REQUEST_TIMEOUT_MS'>,
  now = Date.now(),
): Date {
  return new Date(
    now - Math.max(config.UPLOAD_LINK_TTL_SECONDS * 1000, config.HTTP_REQUEST_TIMEOUT_MS),
  );
}
