import type { Sql } from './sql.ts';

/** An event's type and `data`, as SQL expressions over a changed row `s`. */
export interface EventShape {
  readonly type: string;
  readonly data: string;
}

let traceSource: () => string | undefined = () => undefined;

/**
 * Where events learn the trace they were caused in: a traced process registers a source of the
 * active `traceparent` (this package knows no tracing library), and each event records it.
 */
export function recordEventTraces(source: () => string | undefined): void {
  traceSource = source;
}

/**
 * Runs `change` (an UPDATE ... RETURNING the columns the event reads, `api_key_id` included) and
 * records one webhook event per changed row, in one statement: an event exists exactly when its
 * change happened, whatever crashes after. Keys without a live endpoint get none (nothing would
 * read them). `now` is the SQL parameter holding the time. Resolves with the rows changed.
 */
export async function changeWithEvents(
  sql: Sql,
  change: string,
  event: EventShape,
  values: unknown[],
  now: string,
): Promise<number> {
  const trace = `$${values.length + 1}::text`;
  const { rows } = await sql.query<{ changed: number }>(
    `WITH changed AS (${change}),
          told AS (
       INSERT INTO webhook_events (id, api_key_id, type, data, created_at, trace_context)
       SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), s.api_key_id, ${event.type},
              ${event.data}, ${now}, ${trace}
         FROM changed s
        WHERE EXISTS (SELECT 1 FROM webhook_endpoints ep
                       WHERE ep.api_key_id = s.api_key_id AND ep.deleted_at IS NULL
                         AND ep.disabled_at IS NULL))
     SELECT count(*)::int AS changed FROM changed`,
    [...values, traceSource() ?? null],
  );
  return rows[0]?.changed ?? 0;
}

/** One row's update (`update`, without RETURNING) with its event; true when that row changed. */
export async function changeOneWithEvent(
  sql: Sql,
  update: string,
  event: EventShape & { readonly columns: string },
  values: unknown[],
  now: string,
): Promise<boolean> {
  const change = `${update} RETURNING ${event.columns}`;
  return (await changeWithEvents(sql, change, event, values, now)) === 1;
}

/** `verification.completed` over rows of `verifications`, with the columns it reads. */
export const VERIFICATION_EVENT = {
  type: `'verification.completed'`,
  data: `jsonb_strip_nulls(jsonb_build_object(
      'verificationId', s.id, 'status', s.status, 'verdict', s.verdict,
      'error', CASE WHEN s.error_code IS NULL THEN NULL
                    ELSE jsonb_build_object('code', s.error_code, 'message', s.error_message) END))`,
  columns: 'id, api_key_id, status, verdict, error_code, error_message',
};

/** `watermark.succeeded` / `watermark.failed` over rows of `watermark_jobs`. */
export const WATERMARK_EVENT = {
  type: `CASE s.status WHEN 'success' THEN 'watermark.succeeded' ELSE 'watermark.failed' END`,
  data: `jsonb_strip_nulls(jsonb_build_object(
  'requestId', s.id, 'status', s.status, 'fileId', s.file_id,
  'error', CASE WHEN s.error_code IS NULL THEN NULL
                ELSE jsonb_build_object('code', s.error_code, 'message', s.error_message) END))`,
  columns: 'id, api_key_id, file_id, status, error_code, error_message',
};
/** What a change of `watermark_jobs` must return for its events. */
