import type { Sql } from './sql.ts';

// Webhook deliveries are scheduled in PostgreSQL, not in a queue: a delivery row holds when its
// next attempt is due, and a worker claims due rows with SKIP LOCKED by pushing that time past
// the attempt's time limit (a lease: a worker that dies mid-attempt leaves the row due again).
// So nothing needs reconciling with Redis, every worker can deliver, and the rows are the log.

/** Turns new events into one pending delivery per matching live endpoint of their key. */
export async function fanOutEvents(sql: Sql, limit = 500): Promise<number> {
  const now = new Date();
  const { rows } = await sql.query<{ events: number }>(
    `WITH due AS (
       SELECT id, api_key_id, type FROM webhook_events
        WHERE dispatched_at IS NULL ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED),
          made AS (
       INSERT INTO webhook_deliveries (id, event_id, endpoint_id, status, attempts, next_attempt_at, created_at)
       SELECT gen_random_uuid(), d.id, ep.id, 'pending', 0, $1, $1
         FROM due d
         JOIN webhook_endpoints ep
           ON ep.api_key_id = d.api_key_id AND ep.deleted_at IS NULL AND ep.disabled_at IS NULL
          AND (cardinality(ep.event_types) = 0 OR d.type = ANY(ep.event_types))
       ON CONFLICT (event_id, endpoint_id) DO NOTHING),
          marked AS (
       UPDATE webhook_events SET dispatched_at = $1 WHERE id IN (SELECT id FROM due) RETURNING 1)
     SELECT count(*)::int AS events FROM marked`,
    [now, limit],
  );
  return rows[0]?.events ?? 0;
}

/**
 * Whether delivery `d` has an attempt under way: claimed (its count of attempts raised) and that
 * attempt's outcome not yet logged. The one definition claims and redeliveries share.
 */
function underWay(d: string): string {
  return `(${d}.status = 'pending' AND ${d}.attempts >
           (SELECT count(*) FROM webhook_attempts a WHERE a.delivery_id = ${d}.id))`;
}

/** A delivery claimed for one attempt, with what the attempt needs. */
export interface ClaimedDelivery {
  readonly id: string;
  /** This attempt's number, from 1. */
  readonly attempt: number;
  readonly endpointId: string;
  readonly url: string;
  readonly sealedSecret: string;
  /** Still signing while a rotation overlaps. */
  readonly previousSealedSecret: string | null;
  readonly eventId: string;
  readonly eventType: string;
  readonly eventData: unknown;
  readonly eventAt: Date;
  /** The W3C `traceparent` of the run that caused the event, when it was traced. */
  readonly traceContext: string | null;
}

/**
 * Claims up to `limit` due deliveries for one attempt each, until `leaseMs` from now: in turns
 * (each key's oldest first, then each key's second, ...), and none of a key that already has
 * `perKey` attempts under way on any worker, so one key's slow endpoints cannot hold every slot.
 * An attempt is under way while its delivery's lease runs and its outcome is not yet logged.
 */
export async function claimDueDeliveries(
  sql: Sql,
  limit: number,
  leaseMs: number,
  perKey: number,
): Promise<ClaimedDelivery[]> {
  const now = new Date();
  const { rows } = await sql.query<ClaimedDelivery>(
    `WITH under_way AS (
       SELECT ep.api_key_id, count(*) AS attempts
         FROM webhook_deliveries wd
         JOIN webhook_endpoints ep ON ep.id = wd.endpoint_id
        WHERE wd.next_attempt_at > $1 AND wd.next_attempt_at <= $2 AND ${underWay('wd')}
        GROUP BY ep.api_key_id),
          turns AS (
       SELECT wd.id, wd.next_attempt_at,
              row_number() OVER (PARTITION BY ep.api_key_id ORDER BY wd.next_attempt_at)
                + coalesce(u.attempts, 0) AS turn
         FROM webhook_deliveries wd
         JOIN webhook_endpoints ep ON ep.id = wd.endpoint_id
         LEFT JOIN under_way u ON u.api_key_id = ep.api_key_id
        WHERE wd.status = 'pending' AND wd.next_attempt_at <= $1
          AND ep.deleted_at IS NULL AND ep.disabled_at IS NULL),
          due AS (
       SELECT wd.id FROM webhook_deliveries wd
         JOIN turns t ON t.id = wd.id
        WHERE t.turn <= $4
        ORDER BY t.turn, t.next_attempt_at LIMIT $3
        FOR UPDATE OF wd SKIP LOCKED)
     UPDATE webhook_deliveries d
        SET attempts = d.attempts + 1, next_attempt_at = $2
       FROM due, webhook_events e, webhook_endpoints ep
      WHERE d.id = due.id AND e.id = d.event_id AND ep.id = d.endpoint_id
      RETURNING d.id, d.attempts AS attempt, ep.id AS "endpointId", ep.url,
                ep.sealed_secret AS "sealedSecret",
                CASE WHEN ep.previous_secret_expires_at > $1 THEN ep.previous_sealed_secret END
                  AS "previousSealedSecret",
                e.id AS "eventId", e.type AS "eventType", e.data AS "eventData",
                e.created_at AS "eventAt", e.trace_context AS "traceContext"`,
    [now, new Date(now.getTime() + leaseMs), limit, perKey],
  );
  return rows;
}

/** What one attempt found. */
export interface AttemptOutcome {
  readonly deliveryId: string;
  readonly attempt: number;
  readonly startedAt: Date;
  readonly statusCode: number | null;
  readonly latencyMs: number;
  readonly responseExcerpt: string | null;
  readonly error: string | null;
  readonly succeeded: boolean;
  /** When to try again; null: the schedule is spent (or it succeeded). */
  readonly retryAt: Date | null;
}

/** An endpoint that this outcome disabled: it failed every attempt for too long. */
export interface DisabledEndpoint {
  readonly id: string;
  readonly url: string;
  readonly apiKeyId: string;
}

/**
 * Logs the attempt and settles the delivery (still held by this attempt: its count unchanged).
 * A failure starts or continues the endpoint's failing streak; a streak older than
 * `disableBefore` disables the endpoint, which is returned so that someone is told.
 */
export async function recordAttempt(
  sql: Sql,
  outcome: AttemptOutcome,
  disableBefore: Date,
): Promise<DisabledEndpoint | null> {
  const status = outcome.succeeded ? 'succeeded' : outcome.retryAt === null ? 'failed' : 'pending';
  const { rows } = await sql.query<DisabledEndpoint & { disabled: boolean }>(
    `WITH logged AS (
       INSERT INTO webhook_attempts
              (delivery_id, attempt, started_at, status_code, latency_ms, response_excerpt, error)
       VALUES ($1, $2, $3, $4, $5, $6, $7)),
          settled AS (
       UPDATE webhook_deliveries SET status = $8::webhook_delivery_status, next_attempt_at = $9
        WHERE id = $1 AND attempts = $2 AND status = 'pending'
        RETURNING endpoint_id),
          streak AS (
       UPDATE webhook_endpoints ep
          SET failing_since = CASE WHEN $10 THEN NULL ELSE coalesce(ep.failing_since, $3) END,
              disabled_at = CASE WHEN NOT $10 AND coalesce(ep.failing_since, $3) < $11
                                 THEN $12 ELSE ep.disabled_at END,
              disabled_reason = CASE WHEN NOT $10 AND coalesce(ep.failing_since, $3) < $11
                                     THEN 'Every delivery attempt failed since ' ||
                                          to_char(coalesce(ep.failing_since, $3) AT TIME ZONE 'UTC',
                                                  'YYYY-MM-DD HH24:MI "UTC"')
                                     ELSE ep.disabled_reason END
        WHERE ep.id = (SELECT endpoint_id FROM settled) AND ep.disabled_at IS NULL
        RETURNING ep.id, ep.url, ep.api_key_id AS "apiKeyId", ep.disabled_at IS NOT NULL AS disabled)
     SELECT * FROM streak`,
    [
      outcome.deliveryId,
      outcome.attempt,
      outcome.startedAt,
      outcome.statusCode,
      outcome.latencyMs,
      outcome.responseExcerpt,
      outcome.error,
      status,
      outcome.succeeded ? null : outcome.retryAt,
      outcome.succeeded,
      disableBefore,
      new Date(),
    ],
  );
  const row = rows[0];
  return row?.disabled ? { id: row.id, url: row.url, apiKeyId: row.apiKeyId } : null;
}

/**
 * Forgets events older than `before` whose deliveries are all settled (succeeded or failed),
 * with those deliveries and their attempts; at most `limit` events, in the caller's transaction.
 * The log is for following deliveries, not an archive.
 */
export async function pruneWebhookLog(sql: Sql, before: Date, limit: number): Promise<number> {
  const { rows } = await sql.query<{ id: string }>(
    `SELECT e.id FROM webhook_events e
      WHERE e.created_at < $1
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                         WHERE d.event_id = e.id AND d.status = 'pending')
      ORDER BY e.created_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [before, limit],
  );
  const ids = rows.map((row) => row.id);
  if (ids.length === 0) return 0;
  await sql.query(
    `DELETE FROM webhook_attempts WHERE delivery_id IN
       (SELECT id FROM webhook_deliveries WHERE event_id = ANY($1::text[]))`,
    [ids],
  );
  await sql.query('DELETE FROM webhook_deliveries WHERE event_id = ANY($1::text[])', [ids]);
  await sql.query('DELETE FROM webhook_events WHERE id = ANY($1::text[])', [ids]);
  return ids.length;
}

/**
 * Makes a delivery due now, unless an attempt of it is under way (claimed, its outcome not yet
 * logged): then that attempt is the redelivery, and a second one beside it would send the event
 * twice at once. One statement, so a claim and a redelivery at the same moment cannot both win.
 */
export async function redeliver(
  sql: Sql,
  endpointId: string,
  deliveryId: string,
): Promise<'due' | 'under_way' | 'missing'> {
  const now = new Date();
  const { rows } = await sql.query<{ due: boolean }>(
    `WITH target AS (
       SELECT d.id, ${underWay('d')} AS under_way
         FROM webhook_deliveries d
        WHERE d.id = $1 AND d.endpoint_id = $2
        FOR UPDATE),
          made_due AS (
       UPDATE webhook_deliveries d SET status = 'pending', next_attempt_at = $3
         FROM target WHERE d.id = target.id AND NOT target.under_way
       RETURNING 1)
     SELECT EXISTS (SELECT 1 FROM made_due) AS due FROM target`,
    [deliveryId, endpointId, now],
  );
  const [row] = rows;
  return row === undefined ? 'missing' : row.due ? 'due' : 'under_way';
}

/** Deliveries due now and not delivered, and how long the longest-due one has waited. */
export async function webhookBacklog(
  sql: Sql,
  now = new Date(),
): Promise<{ readonly due: number; readonly oldestDueSeconds: number }> {
  const { rows } = await sql.query<{ due: number; oldest: Date | null }>(
    `SELECT count(*)::int AS due, min(next_attempt_at) AS oldest
       FROM webhook_deliveries
      WHERE status = 'pending' AND next_attempt_at <= $1`,
    [now],
  );
  const oldest = rows[0]?.oldest ?? null;
  return {
    due: rows[0]?.due ?? 0,
    oldestDueSeconds: oldest === null ? 0 : Math.max(0, now.getTime() - oldest.getTime()) / 1000,
  };
}
