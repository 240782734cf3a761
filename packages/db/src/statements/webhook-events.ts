/**
 * The webhook events of a change, recorded by the statement that makes the change: a CTE over the
 * changed rows (`source`, with an `api_key_id` column) inserts one event per row. So an event
 * exists exactly when its change happened, whatever crashes after. Keys without a live endpoint
 * get none (nothing would read them).
 */
export function recordEvents(source: string, type: string, data: string, now: string): string {
  return `INSERT INTO webhook_events (id, api_key_id, type, data, created_at)
    SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), s.api_key_id, ${type}, ${data}, ${now}
      FROM ${source} s
     WHERE EXISTS (SELECT 1 FROM webhook_endpoints ep
                    WHERE ep.api_key_id = s.api_key_id AND ep.deleted_at IS NULL
                      AND ep.disabled_at IS NULL)`;
}

/** `watermark.succeeded` / `watermark.failed` over rows of `watermark_jobs`. */
export const WATERMARK_EVENT_TYPE = `CASE s.status WHEN 'success' THEN 'watermark.succeeded' ELSE 'watermark.failed' END`;
export const WATERMARK_EVENT_DATA = `jsonb_strip_nulls(jsonb_build_object(
  'requestId', s.id, 'status', s.status, 'fileId', s.file_id,
  'error', CASE WHEN s.error_code IS NULL THEN NULL
                ELSE jsonb_build_object('code', s.error_code, 'message', s.error_message) END))`;
/** What a CTE over `watermark_jobs` must return for its events. */
export const WATERMARK_EVENT_COLUMNS = 'id, api_key_id, file_id, status, error_code, error_message';
